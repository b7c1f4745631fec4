// Reed-Solomon erasure coding as nearcore encodes chunks (core/primitives/src/reed_solomon.rs over
// the reed-solomon-erasure crate's galois_8 field): the bytes are cut into `dataParts` parts of
// ceil(len / dataParts) bytes, zero-padded, and `totalParts - dataParts` parity parts follow. A
// chunk header commits to every part through `encoded_merkle_root`, so the parity bytes must be the
// crate's exactly: GF(2^8) over x^8 + x^4 + x^3 + x^2 + 1, and the crate's systematic matrix (the
// Vandermonde matrix of r^c times the inverse of its top square).

const EXP = new Uint8Array(510);
const LOG = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i++) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 510; i++) EXP[i] = EXP[i - 255]!;
}

function gfMul(a: number, b: number): number {
  return a === 0 || b === 0 ? 0 : EXP[LOG[a]! + LOG[b]!]!;
}

function gfPow(a: number, n: number): number {
  if (n === 0) return 1;
  return a === 0 ? 0 : EXP[(LOG[a]! * n) % 255]!;
}

/** Rows of a square matrix over GF(2^8), inverted by Gauss-Jordan elimination. */
function invert(m: readonly Uint8Array[]): Uint8Array[] {
  const n = m.length;
  const a = m.map((row, i) => {
    const r = new Uint8Array(2 * n);
    r.set(row);
    r[n + i] = 1;
    return r;
  });
  for (let c = 0; c < n; c++) {
    let p = c;
    while (a[p]![c] === 0) p++;
    [a[c], a[p]] = [a[p]!, a[c]!];
    const pivot = a[c]!;
    const scale = EXP[255 - LOG[pivot[c]!]!]!;
    for (let k = 0; k < 2 * n; k++) pivot[k] = gfMul(pivot[k]!, scale);
    for (let r = 0; r < n; r++) {
      const row = a[r]!;
      const f = row[c]!;
      if (r === c || f === 0) continue;
      for (let k = 0; k < 2 * n; k++) row[k]! ^= gfMul(f, pivot[k]!);
    }
  }
  return a.map((row) => row.slice(n));
}

/**
 * The parity rows four at a time: for each group and data part, what a data byte adds to the four
 * rows' parity bytes, packed in one word, so one lookup and one xor serve four parity parts.
 */
interface PackedRows {
  readonly rows: number;
  /** [group][data part]: 256 words. */
  readonly tables: readonly (readonly Uint32Array[])[];
}

const packedCache = new Map<string, PackedRows>();

function packedRows(dataParts: number, totalParts: number): PackedRows {
  const key = `${dataParts}/${totalParts}`;
  const cached = packedCache.get(key);
  if (cached) return cached;
  const rows = parityRows(dataParts, totalParts);
  const tables: Uint32Array[][] = [];
  for (let g = 0; g < rows.length; g += 4) {
    const group: Uint32Array[] = [];
    for (let j = 0; j < dataParts; j++) {
      const t = new Uint32Array(256);
      for (let b = 0; b < 256; b++) {
        let w = 0;
        for (let r = 0; r < 4 && g + r < rows.length; r++) w |= gfMul(rows[g + r]![j]!, b) << (8 * r);
        t[b] = w >>> 0;
      }
      group.push(t);
    }
    tables.push(group);
  }
  const packed = { rows: rows.length, tables };
  packedCache.set(key, packed);
  return packed;
}

/** The parity rows of the crate's encoding matrix for `dataParts` of `totalParts`. */
function parityRows(dataParts: number, totalParts: number): readonly Uint8Array[] {
  const vandermonde: Uint8Array[] = [];
  for (let r = 0; r < totalParts; r++) {
    const row = new Uint8Array(dataParts);
    for (let c = 0; c < dataParts; c++) row[c] = gfPow(r, c);
    vandermonde.push(row);
  }
  const topInverse = invert(vandermonde.slice(0, dataParts));
  const rows: Uint8Array[] = [];
  for (let r = dataParts; r < totalParts; r++) {
    const row = new Uint8Array(dataParts);
    for (let c = 0; c < dataParts; c++) {
      let s = 0;
      for (let k = 0; k < dataParts; k++) s ^= gfMul(vandermonde[r]![k]!, topInverse[k]![c]!);
      row[c] = s;
    }
    rows.push(row);
  }
  return rows;
}

/**
 * nearcore's `reed_solomon_encode`: the data parts of `bytes`, then the parity parts, all of
 * ceil(len / dataParts) bytes. The crate takes at most 256 parts and at least one of each kind.
 */
export function reedSolomonParts(bytes: Uint8Array, dataParts: number, totalParts: number): Uint8Array[] {
  if (!(Number.isInteger(dataParts) && Number.isInteger(totalParts) && dataParts >= 1)) {
    throw new RangeError(`reed-solomon: ${dataParts} data parts of ${totalParts}`);
  }
  if (!(totalParts > dataParts && totalParts <= 256)) {
    throw new RangeError(`reed-solomon: ${dataParts} data parts of ${totalParts}`);
  }
  const partLength = Math.ceil(bytes.length / dataParts);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < dataParts; i++) {
    const part = new Uint8Array(partLength);
    part.set(bytes.subarray(i * partLength, Math.min((i + 1) * partLength, bytes.length)));
    parts.push(part);
  }
  const packed = packedRows(dataParts, totalParts);
  const acc = new Uint32Array(partLength);
  for (let g = 0; g < packed.tables.length; g++) {
    acc.fill(0);
    const group = packed.tables[g]!;
    for (let j = 0; j < dataParts; j++) {
      const t = group[j]!;
      const d = parts[j]!;
      for (let k = 0; k < partLength; k++) acc[k]! ^= t[d[k]!]!;
    }
    for (let r = 0; r < 4 && g * 4 + r < packed.rows; r++) {
      const parity = new Uint8Array(partLength);
      const shift = 8 * r;
      for (let k = 0; k < partLength; k++) parity[k] = acc[k]! >>> shift;
      parts.push(parity);
    }
  }
  return parts;
}
