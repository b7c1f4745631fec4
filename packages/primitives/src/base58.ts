// Bitcoin-alphabet base58, the encoding NEAR uses for hashes and keys.
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i;

export class Base58Error extends Error {
  override readonly name = 'Base58Error';
}

export function base58Encode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const size = Math.ceil(((bytes.length - zeros) * 138) / 100) + 1;
  const digits = new Uint8Array(size);
  let length = 0;
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!;
    let j = 0;
    for (let k = size - 1; (carry !== 0 || j < length) && k >= 0; k--, j++) {
      carry += 256 * digits[k]!;
      digits[k] = carry % 58;
      carry = (carry / 58) | 0;
    }
    length = j;
  }
  let start = size - length;
  while (start < size && digits[start] === 0) start++;
  let out = '1'.repeat(zeros);
  for (let i = start; i < size; i++) out += ALPHABET[digits[i]!];
  return out;
}

export function base58Decode(text: string): Uint8Array {
  let zeros = 0;
  while (zeros < text.length && text[zeros] === '1') zeros++;
  const size = Math.ceil(((text.length - zeros) * 733) / 1000) + 1;
  const bytes = new Uint8Array(size);
  let length = 0;
  for (let i = zeros; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const value = c < 128 ? INDEX[c]! : -1;
    if (value < 0) throw new Base58Error(`invalid base58 character ${JSON.stringify(text[i])} at index ${i}`);
    let carry = value;
    let j = 0;
    for (let k = size - 1; (carry !== 0 || j < length) && k >= 0; k--, j++) {
      carry += 58 * bytes[k]!;
      bytes[k] = carry & 0xff;
      carry >>= 8;
    }
    length = j;
  }
  let start = size - length;
  while (start < size && bytes[start] === 0) start++;
  const out = new Uint8Array(zeros + size - start);
  out.set(bytes.subarray(start), zeros);
  return out;
}
