// Decodes one instruction's opcode and immediates, admitting only the features nearcore enables
// (MVP + sign-extension, and saturating float-to-int / bulk memory / reference types when the config
// says so). Anything else — SIMD, threads, exceptions, tail calls, multi-value blocks — is rejected.
import { fail, type Reader } from './bytes.js';

export interface Features {
  readonly saturatingFloatToInt: boolean;
  readonly reftypesBulkMemory: boolean;
}

/** The instruction's role in control flow, or 'plain'. */
export type InstrKind = 'plain' | 'block' | 'loop' | 'if' | 'else' | 'end' | 'branch' | 'br_if' | 'call';

export function isValType(t: number, f: Features): boolean {
  if (t === 0x7f || t === 0x7e || t === 0x7d || t === 0x7c) return true;
  return f.reftypesBulkMemory && (t === 0x70 || t === 0x6f);
}

export function valTypeSize(t: number): number {
  return t === 0x7f || t === 0x7d ? 4 : 8;
}

function blockType(r: Reader, f: Features): void {
  const t = r.u8();
  if (t !== 0x40 && !isValType(t, f)) fail();
}

function memarg(r: Reader): void {
  r.u32();
  r.u32();
}

export function readInstruction(r: Reader, f: Features): InstrKind {
  const op = r.u8();
  if (op >= 0x45 && op <= 0xc4) return 'plain';
  if (op >= 0x28 && op <= 0x3e) {
    memarg(r);
    return 'plain';
  }
  switch (op) {
    case 0x00:
    case 0x0f:
      return 'branch';
    case 0x01:
    case 0x1a:
    case 0x1b:
      return 'plain';
    case 0x02:
      blockType(r, f);
      return 'block';
    case 0x03:
      blockType(r, f);
      return 'loop';
    case 0x04:
      blockType(r, f);
      return 'if';
    case 0x05:
      return 'else';
    case 0x0b:
      return 'end';
    case 0x0c:
      r.u32();
      return 'branch';
    case 0x0d:
      r.u32();
      return 'br_if';
    case 0x0e: {
      const n = r.u32();
      for (let i = 0; i <= n; i++) r.u32();
      return 'branch';
    }
    case 0x10:
      r.u32();
      return 'call';
    case 0x11: {
      r.u32();
      const table = r.u32();
      if (table !== 0 && !f.reftypesBulkMemory) fail();
      return 'call';
    }
    case 0x20:
    case 0x21:
    case 0x22:
    case 0x23:
    case 0x24:
      r.u32();
      return 'plain';
    case 0x3f:
    case 0x40:
      if (r.u8() !== 0) fail();
      return 'plain';
    case 0x41:
      r.skipSleb(5);
      return 'plain';
    case 0x42:
      r.skipSleb(10);
      return 'plain';
    case 0x43:
      r.advance(4);
      return 'plain';
    case 0x44:
      r.advance(8);
      return 'plain';
  }
  if (!f.reftypesBulkMemory && op !== 0xfc) fail();
  switch (op) {
    case 0x1c: {
      const n = r.u32();
      if (n !== 1) fail();
      if (!isValType(r.u8(), f)) fail();
      return 'plain';
    }
    case 0x25:
    case 0x26:
    case 0xd2:
      r.u32();
      return 'plain';
    case 0xd0: {
      const t = r.u8();
      if (t !== 0x70 && t !== 0x6f) fail();
      return 'plain';
    }
    case 0xd1:
      return 'plain';
    case 0xfc:
      return prefixed(r, f);
  }
  return fail();
}

function prefixed(r: Reader, f: Features): InstrKind {
  const sub = r.u32();
  if (sub <= 7) {
    if (!f.saturatingFloatToInt) fail();
    return 'plain';
  }
  if (!f.reftypesBulkMemory) fail();
  switch (sub) {
    case 8:
      r.u32();
      if (r.u8() !== 0) fail();
      return 'plain';
    case 9:
    case 13:
    case 15:
    case 16:
    case 17:
      r.u32();
      return 'plain';
    case 10:
      if (r.u8() !== 0 || r.u8() !== 0) fail();
      return 'plain';
    case 11:
      if (r.u8() !== 0) fail();
      return 'plain';
    case 12:
    case 14:
      r.u32();
      r.u32();
      return 'plain';
  }
  return fail();
}

/** Skips a constant expression up to and including its `end`. */
export function skipConstExpr(r: Reader, f: Features): void {
  for (;;) if (readInstruction(r, f) === 'end') return;
}
