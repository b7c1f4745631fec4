// Hand-written borsh codec: the hot types (transactions, trie values, headers) are encoded with these
// directly; a generic schema library is an order of magnitude slower here.
import { offHeap } from './off_heap.js';
import { rustUtf8Error } from './rust_utf8.js';

export class BorshError extends Error {
  override readonly name = 'BorshError';
}

// The borsh crate's own texts, which nearcore passes on in a decode failure's message
// ("Failed to decode transaction: Unexpected length of input").
const UNEXPECTED_LENGTH = 'Unexpected length of input';
const NOT_ALL_BYTES_READ = 'Not all bytes read';

/** The largest u64 and u128: borsh's bounds, and nearcore's checked arithmetic's. */
export const U64_MAX = (1n << 64n) - 1n;
export const U128_MAX = (1n << 128n) - 1n;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

// A writer's buffer is a region of an off-heap slab (`offHeap` says why): a writer lives only until
// `toBytes` copies its bytes out, and writers alive at once (nested encoders) never share bytes.
export class BorshWriter {
  private buf: Uint8Array;
  private view: DataView;
  private len = 0;

  constructor(capacity = 256) {
    this.buf = offHeap(capacity);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.len + n) cap *= 2;
    const next = offHeap(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
  }

  u8(v: number): this {
    this.reserve(1);
    this.buf[this.len++] = v;
    return this;
  }

  bool(v: boolean): this {
    return this.u8(v ? 1 : 0);
  }

  u16(v: number): this {
    this.reserve(2);
    this.view.setUint16(this.len, v, true);
    this.len += 2;
    return this;
  }

  u32(v: number): this {
    this.reserve(4);
    this.view.setUint32(this.len, v, true);
    this.len += 4;
    return this;
  }

  u64(v: bigint | number): this {
    const b = BigInt(v);
    if (b < 0n || b > U64_MAX) throw new BorshError(`u64 out of range: ${b}`);
    this.reserve(8);
    this.view.setBigUint64(this.len, b, true);
    this.len += 8;
    return this;
  }

  u128(v: bigint): this {
    if (v < 0n || v > U128_MAX) throw new BorshError(`u128 out of range: ${v}`);
    this.reserve(16);
    this.view.setBigUint64(this.len, v & U64_MAX, true);
    this.view.setBigUint64(this.len + 8, v >> 64n, true);
    this.len += 16;
    return this;
  }

  /** Fixed-size bytes, no length prefix (`[u8; N]`). */
  fixed(bytes: Uint8Array): this {
    this.reserve(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
    return this;
  }

  /** `n` bytes of `src` from `start`, copied one by one: no view of `src` is made for them. */
  fixedFrom(src: Uint8Array, start: number, n: number): this {
    this.reserve(n);
    const buf = this.buf;
    const at = this.len;
    for (let k = 0; k < n; k++) buf[at + k] = src[start + k]!;
    this.len += n;
    return this;
  }

  /** `Vec<u8>`: u32 length then bytes. */
  bytes(bytes: Uint8Array): this {
    this.u32(bytes.length);
    return this.fixed(bytes);
  }

  /** `String`: u32 byte length then UTF-8, encoded in place (at most three bytes a UTF-16 unit). */
  string(s: string): this {
    this.reserve(4 + s.length * 3);
    const { written } = encoder.encodeInto(s, this.buf.subarray(this.len + 4));
    this.view.setUint32(this.len, written, true);
    this.len += 4 + written;
    return this;
  }

  option<T>(v: T | null | undefined, write: (w: this, v: T) => void): this {
    if (v === null || v === undefined) return this.u8(0);
    this.u8(1);
    write(this, v);
    return this;
  }

  vec<T>(items: readonly T[], write: (w: this, v: T) => void): this {
    this.u32(items.length);
    for (const it of items) write(this, it);
    return this;
  }

  get length(): number {
    return this.len;
  }

  /** A copy of the written bytes. */
  toBytes(): Uint8Array {
    return this.buf.slice(0, this.len);
  }

  /**
   * The written bytes in place, without the copy `toBytes` makes (a backing store of its own for
   * anything over 64 bytes, ~1 µs with what the collector spends on it). Only for bytes soon let go:
   * the view keeps its whole slab alive. The writer must not be written to afterwards.
   */
  written(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}

export class BorshReader {
  private readonly view: DataView;
  offset = 0;

  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  private need(n: number): void {
    if (this.offset + n > this.buf.length) throw new BorshError(UNEXPECTED_LENGTH);
  }

  u8(): number {
    this.need(1);
    return this.buf[this.offset++]!;
  }

  bool(): boolean {
    const v = this.u8();
    if (v > 1) throw new BorshError(`Invalid bool representation: ${v}`);
    return v === 1;
  }

  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.offset, true);
    this.offset += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return v;
  }

  u64(): bigint {
    this.need(8);
    const v = this.view.getBigUint64(this.offset, true);
    this.offset += 8;
    return v;
  }

  u128(): bigint {
    this.need(16);
    const lo = this.view.getBigUint64(this.offset, true);
    const hi = this.view.getBigUint64(this.offset + 8, true);
    this.offset += 16;
    return (hi << 64n) | lo;
  }

  /** A view (not a copy) of the next n bytes. */
  fixed(n: number): Uint8Array {
    this.need(n);
    const out = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  bytes(): Uint8Array {
    return this.fixed(this.u32());
  }

  string(): string {
    const b = this.bytes();
    try {
      return decoder.decode(b);
    } catch {
      throw new BorshError(rustUtf8Error(b) ?? 'invalid utf-8');
    }
  }

  option<T>(read: (r: this) => T): T | null {
    const tag = this.u8();
    if (tag === 0) return null;
    if (tag === 1) return read(this);
    throw new BorshError(`Invalid Option representation: ${tag}. The first byte must be 0 or 1`);
  }

  vec<T>(read: (r: this) => T): T[] {
    const n = this.u32();
    // Each element takes at least one byte, so a count above what is left is malformed.
    if (n > this.remaining) throw new BorshError(UNEXPECTED_LENGTH);
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(read(this));
    return out;
  }

  get remaining(): number {
    return this.buf.length - this.offset;
  }

  /** The byte `ahead` bytes past the position, without consuming it; undefined past the end. */
  peek(ahead = 0): number | undefined {
    return this.buf[this.offset + ahead];
  }

  /** Throws unless every byte was consumed (borsh rejects trailing bytes). */
  end(): void {
    if (this.offset !== this.buf.length) throw new BorshError(NOT_ALL_BYTES_READ);
  }
}
