import { createHash, hash as nodeHash } from 'node:crypto';
import { IN_HEAP_MAX } from './off_heap.js';

/** A 32-byte sha256 digest; nearcore's `CryptoHash`. */
export type CryptoHash = Uint8Array;

export const ZERO_HASH: CryptoHash = new Uint8Array(32);

/** The bytes of a binary (latin1) string, one a char: a `binaryKey`, or a 'binary' digest. */
export function bytesOfBinaryKey(key: string): Uint8Array {
  const out = new Uint8Array(key.length);
  for (let i = 0; i < key.length; i++) out[i] = key.charCodeAt(i);
  return out;
}

// The digest comes back as a binary (latin1) string and is copied into a 32-byte array, which V8 keeps in its
// own heap: a digest as a Buffer is an ArrayBuffer with memory outside the heap, which the collector
// tracks and sweeps one by one. With the collection that follows counted, 350 ns a hash against
// 730–1,000 ns as a Buffer; block production hashes ~30 times a transfer.
export function sha256(data: Uint8Array): CryptoHash {
  return bytesOfBinaryKey(nodeHash('sha256', data, 'binary'));
}

function sha256Many(parts: readonly Uint8Array[]): CryptoHash {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return bytesOfBinaryKey(h.digest('binary'));
}

/** Two hashes side by side, for the one-shot hash: a Hash object fed twice cost ~1 µs more a pair. */
const pair = new Uint8Array(64);

/** nearcore's `combine_hash`: sha256(a ‖ b). */
export function combineHash(a: CryptoHash, b: CryptoHash): CryptoHash {
  if (a.length !== 32 || b.length !== 32) return sha256Many([a, b]);
  pair.set(a, 0);
  pair.set(b, 32);
  return sha256(pair);
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && bytesEqualAt(a, b, 0);
}

/** True if `b` holds `a` at `at`, compared in place (no view of `b` is made). */
export function bytesEqualAt(a: Uint8Array, b: Uint8Array, at: number): boolean {
  if (at < 0 || at + a.length > b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[at + i]) return false;
  return true;
}

export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** The two char codes of each byte's hex digits, at 2·byte and 2·byte + 1. */
const HEX_CODES: number[] = [];
for (let i = 0; i < 256; i++) {
  const s = i.toString(16).padStart(2, '0');
  HEX_CODES.push(s.charCodeAt(0), s.charCodeAt(1));
}
/** The char codes of a hash's hex, filled in place: one string allocation, where `+=` made one per byte. */
const hashCodes: number[] = new Array(64).fill(0);

// Short byte strings (keys, hashes) are converted without `bytes.buffer`: asking a typed array that
// V8 keeps in its heap for its buffer moves its bytes off the heap (`offHeap` says why), ~1 µs,
// several times the conversion itself.
/** The bytes as a string of one char per byte: a cheap map key (no hex expansion). */
export function binaryKey(bytes: Uint8Array): string {
  if (bytes.length <= IN_HEAP_MAX) return String.fromCharCode.apply(null, bytes as unknown as number[]);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

export function toHex(bytes: Uint8Array): string {
  const n = bytes.length;
  if (n <= IN_HEAP_MAX) {
    const codes = n === 32 ? hashCodes : new Array<number>(2 * n);
    for (let i = 0; i < n; i++) {
      const b = bytes[i]! * 2;
      codes[2 * i] = HEX_CODES[b]!;
      codes[2 * i + 1] = HEX_CODES[b + 1]!;
    }
    return String.fromCharCode.apply(null, codes);
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export function fromHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64 decode (Node's decoder silently skips garbage, nearcore's does not). */
export function fromBase64(text: string): Uint8Array {
  if (text.length % 4 !== 0 || !BASE64_RE.test(text)) throw new TypeError('invalid base64');
  return new Uint8Array(Buffer.from(text, 'base64'));
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The UTF-8 bytes of `text`. Short ASCII text (account ids, method names, trie key parts) is copied a
 * byte at a time: TextEncoder's result is a new off-heap buffer, ~1 µs in V8, twenty times the copy.
 */
export function utf8(text: string): Uint8Array {
  const n = text.length;
  if (n > IN_HEAP_MAX) return utf8Encoder.encode(text);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return utf8Encoder.encode(text);
    out[i] = c;
  }
  return out;
}

export function fromUtf8(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}
