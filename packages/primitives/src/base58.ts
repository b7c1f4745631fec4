// Bitcoin-alphabet base58, the encoding NEAR uses for hashes and keys.
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

/** A base58 digit's value by its character code, or -1 for any other character. */
export function base58Digit(code: number): number {
  return code < 128 ? INDEX[code]! : -1;
}

export class Base58Error extends Error {
  override readonly name = 'Base58Error';
}

const GROUP = 58 ** 5; // five base58 digits per division step

const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));

const INVERSE_GROUP = 1 / GROUP;

// Scratch reused by every call (encoding is synchronous): hashes are encoded for every id in every
// answer, and per-call arrays and per-digit strings made most of the garbage a transaction's answer
// left behind. The digits are a Buffer so that the string is made from them in one native call.
let words = new Float64Array(64);
let digits = Buffer.allocUnsafeSlow(256);

/**
 * Divides the number (16-bit big-endian words) by 58^5 repeatedly: every intermediate stays below
 * 2^53, so plain float arithmetic is exact and far cheaper than digit-by-digit carrying. The divisions
 * form one chain of dependent steps, so each is a multiplication by 1/58^5, whose truncated quotient
 * is off by at most one and corrected from the remainder: half the time of a float division.
 */
export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const n = bytes.length - zeros;
  const count = (n + 1) >> 1;
  if (count > words.length) words = new Float64Array(count);
  // log(256) / log(58) < 1.3658 digits a byte, in groups of five, plus the leading ones.
  const most = Math.ceil((n * 1.3658) / 5) * 5 + 5 + zeros;
  if (most > digits.length) digits = Buffer.allocUnsafeSlow(most);
  const w = words;
  for (let i = 0, j = zeros; i < count; i++) {
    // The first word takes one byte when the length is odd.
    if (i === 0 && (n & 1) === 1) w[i] = bytes[j++]!;
    else {
      w[i] = (bytes[j]! << 8) | bytes[j + 1]!;
      j += 2;
    }
  }
  // Digits come least significant first, so they fill the scratch from its end.
  const d = digits;
  let pos = d.length;
  let start = 0;
  while (start < count) {
    let rem = 0;
    for (let i = start; i < count; i++) {
      const cur = rem * 65536 + w[i]!;
      let q = Math.trunc(cur * INVERSE_GROUP);
      let r = cur - q * GROUP;
      if (r < 0) {
        q--;
        r += GROUP;
      } else if (r >= GROUP) {
        q++;
        r -= GROUP;
      }
      w[i] = q;
      rem = r;
    }
    // Below 58^5 < 2^31: integer division.
    let r = rem | 0;
    for (let k = 0; k < 5; k++) {
      const q = (r / 58) | 0;
      d[--pos] = CODES[r - q * 58]!;
      r = q;
    }
    while (start < count && w[start] === 0) start++;
  }
  while (pos < d.length && d[pos] === 0x31) pos++;
  for (let z = 0; z < zeros; z++) d[--pos] = 0x31;
  return d.toString('latin1', pos, d.length);
}

/**
 * Multiplies the number (16-bit little-endian words) by 58^5 and adds five digits at a time, the
 * inverse of `base58Encode`'s steps: every intermediate stays below 2^46, exact in float arithmetic.
 */
export function base58Decode(text: string): Uint8Array {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 0x31) zeros++;
  const digits = text.length - zeros;
  const words = new Array<number>(Math.ceil((digits * 733) / 2000) + 1);
  let len = 0;
  // The first group takes the digits beyond a multiple of five, so every later group takes five.
  let take = digits % 5 || 5;
  for (let i = zeros; i < text.length; i += take, take = 5) {
    let group = 0;
    let scale = 1;
    for (let k = i; k < i + take; k++) {
      const c = text.charCodeAt(k);
      const value = base58Digit(c);
      if (value < 0)
        throw new Base58Error(`invalid base58 character ${JSON.stringify(text[k])} at index ${k}`);
      group = group * 58 + value;
      scale *= 58;
    }
    let carry = group;
    for (let w = 0; w < len; w++) {
      const cur = words[w]! * scale + carry;
      carry = Math.floor(cur / 65536);
      words[w] = cur - carry * 65536;
    }
    while (carry > 0) {
      words[len++] = carry % 65536;
      carry = Math.floor(carry / 65536);
    }
  }
  // Big-endian bytes of the words, without the top word's leading zero byte.
  const top = len > 0 && words[len - 1]! < 256 ? 1 : 0;
  const out = new Uint8Array(zeros + len * 2 - top);
  let j = out.length;
  for (let w = 0; w < len; w++) {
    const word = words[w]!;
    out[--j] = word & 0xff;
    if (j > zeros) out[--j] = word >> 8;
  }
  return out;
}

/** The 32 bytes a base58 hash names, or null when `text` is no such hash (not base58, or not 32 bytes). */
export function base58Hash(text: unknown): Uint8Array | null {
  if (typeof text !== 'string') return null;
  try {
    const bytes = base58Decode(text);
    return bytes.length === 32 ? bytes : null;
  } catch {
    return null;
  }
}
