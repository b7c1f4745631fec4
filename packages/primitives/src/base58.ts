// Bitcoin-alphabet base58, the encoding NEAR uses for hashes and keys.
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

export class Base58Error extends Error {
  override readonly name = 'Base58Error';
}

const GROUP = 58 ** 5; // five base58 digits per division step

/**
 * Divides the number (16-bit big-endian words) by 58^5 repeatedly: every intermediate stays below
 * 2^53, so plain float arithmetic is exact and far cheaper than digit-by-digit carrying.
 */
export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const n = bytes.length - zeros;
  const words = new Array<number>(Math.ceil(n / 2));
  for (let i = 0, j = zeros; i < words.length; i++) {
    // The first word takes one byte when the length is odd.
    if (i === 0 && n % 2 === 1) words[i] = bytes[j++]!;
    else {
      words[i] = (bytes[j]! << 8) | bytes[j + 1]!;
      j += 2;
    }
  }
  const groups: number[] = [];
  let start = 0;
  while (start < words.length) {
    let rem = 0;
    for (let i = start; i < words.length; i++) {
      const cur = rem * 65536 + words[i]!;
      const q = Math.floor(cur / GROUP);
      words[i] = q;
      rem = cur - q * GROUP;
    }
    groups.push(rem);
    while (start < words.length && words[start] === 0) start++;
  }
  let out = '';
  for (let g = groups.length - 1; g >= 0; g--) {
    let v = groups[g]!;
    let chunk = '';
    for (let k = 0; k < 5; k++) {
      chunk = ALPHABET[v % 58]! + chunk;
      v = Math.floor(v / 58);
    }
    out += chunk;
  }
  let lead = 0;
  while (lead < out.length && out[lead] === '1') lead++;
  return '1'.repeat(zeros) + out.slice(lead);
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
      const value = c < 128 ? INDEX[c]! : -1;
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
