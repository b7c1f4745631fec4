// Minimal Wasm binary reading and writing: LEB128 and a growable byte sink.
import type { PrepareError } from '../errors.js';

export class PrepareFailure extends Error {
  override readonly name = 'PrepareFailure';
  constructor(readonly kind: PrepareError) {
    super(kind);
  }
}

export function fail(kind: PrepareError = 'Deserialization'): never {
  throw new PrepareFailure(kind);
}

export class Reader {
  constructor(
    readonly b: Uint8Array,
    public pos = 0,
    readonly end = b.length,
  ) {}

  done(): boolean {
    return this.pos >= this.end;
  }

  u8(): number {
    if (this.pos >= this.end) fail();
    return this.b[this.pos++]!;
  }

  u32(): number {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = this.u8();
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) {
        if (result > 0xffffffff) fail();
        return result;
      }
    }
    return fail();
  }

  /** Skips a signed LEB128 of at most `maxBytes` bytes (i32: 5, i64: 10). */
  skipSleb(maxBytes: number): void {
    for (let i = 0; i < maxBytes; i++) if ((this.u8() & 0x80) === 0) return;
    fail();
  }

  advance(n: number): void {
    if (this.pos + n > this.end) fail();
    this.pos += n;
  }

  bytes(n: number): Uint8Array {
    const start = this.pos;
    this.advance(n);
    return this.b.subarray(start, start + n);
  }

  name(): string {
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(this.bytes(this.u32()));
    } catch (e) {
      if (e instanceof PrepareFailure) throw e;
      return fail();
    }
  }
}

export class Sink {
  private buf = new Uint8Array(1024);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  byte(v: number): this {
    this.room(1);
    this.buf[this.length++] = v;
    return this;
  }

  bytes(v: Uint8Array): this {
    this.room(v.length);
    this.buf.set(v, this.length);
    this.length += v.length;
    return this;
  }

  u32(v: number): this {
    do {
      let byte = v & 0x7f;
      v = Math.floor(v / 128);
      if (v !== 0) byte |= 0x80;
      this.byte(byte);
    } while (v !== 0);
    return this;
  }

  sleb(v: bigint): this {
    for (;;) {
      const byte = Number(v & 0x7fn);
      v >>= 7n;
      const done = (v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0);
      this.byte(done ? byte : byte | 0x80);
      if (done) return this;
    }
  }

  name(s: string): this {
    const b = new TextEncoder().encode(s);
    return this.u32(b.length).bytes(b);
  }

  /** Appends `content` as a section with id `id`. */
  section(id: number, content: Sink): this {
    return this.byte(id).u32(content.length).bytes(content.toBytes());
  }

  toBytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}
