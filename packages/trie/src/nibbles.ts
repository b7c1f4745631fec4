// Keys as 4-bit nibbles (high nibble of each byte first) and nearcore's nibble-path encoding:
// first byte = 0x10·odd + 0x20·leaf (+ first nibble when odd), then the rest packed two per byte.

export function toNibbles(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    out[2 * i] = bytes[i]! >> 4;
    out[2 * i + 1] = bytes[i]! & 0x0f;
  }
  return out;
}

/** The first `count` nibbles (all by default) back to bytes; the count must be even. */
export function fromNibbles(nibbles: ArrayLike<number>, count = nibbles.length): Uint8Array {
  const out = new Uint8Array(count >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (nibbles[2 * i]! << 4) | nibbles[2 * i + 1]!;
  return out;
}

export function encodeNibblePath(nibbles: Uint8Array, isLeaf: boolean): Uint8Array {
  const n = nibbles.length;
  const out = new Uint8Array(1 + (n >> 1));
  const odd = n % 2 === 1;
  out[0] = (odd ? 0x10 + nibbles[0]! : 0) + (isLeaf ? 0x20 : 0);
  let j = odd ? 1 : 0;
  for (let i = 1; i < out.length; i++, j += 2) out[i] = (nibbles[j]! << 4) | nibbles[j + 1]!;
  return out;
}

export function decodeNibblePath(encoded: Uint8Array): { nibbles: Uint8Array; isLeaf: boolean } {
  const first = encoded[0]!;
  const odd = (first & 0x10) !== 0;
  const isLeaf = (first & 0x20) !== 0;
  const n = (encoded.length - 1) * 2 + (odd ? 1 : 0);
  const nibbles = new Uint8Array(n);
  let j = 0;
  if (odd) nibbles[j++] = first & 0x0f;
  for (let i = 1; i < encoded.length; i++) {
    nibbles[j++] = encoded[i]! >> 4;
    nibbles[j++] = encoded[i]! & 0x0f;
  }
  return { nibbles, isLeaf };
}

/** How many of `a`'s nibbles `b` repeats from `bAt`. */
export function commonPrefixLength(a: Uint8Array, b: Uint8Array, bAt = 0): number {
  const n = Math.min(a.length, b.length - bAt);
  let i = 0;
  while (i < n && a[i] === b[bAt + i]) i++;
  return i;
}
