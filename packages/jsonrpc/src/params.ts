// Params parsing with nearcore's (serde's) error wording. Everything returns typed values or throws
// a PARSE_ERROR RpcError; nothing here trusts the JSON's shape.
import {
  accountIdError,
  base58Decode,
  type CryptoHash,
  fromBase64,
  parsePublicKey,
} from '@nearlite/primitives';
import type { BlockId, BlockReference, Finality, TxExecutionStatus } from './backend.js';
import { argsError } from './errors.js';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function expectObject(params: unknown, what = 'params'): Obj {
  if (!isObj(params)) throw argsError(`invalid type: ${typeName(params)}, expected ${what} as an object`);
  return params;
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'sequence';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'string') return `string ${JSON.stringify(v)}`;
  if (typeof v === 'number') return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${v}\``;
  return `${typeof v} \`${String(v)}\``;
}

export function denyUnknown(o: Obj, allowed: readonly string[]): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k))
      throw argsError(`unknown field \`${k}\`, expected one of ${allowed.map((a) => `\`${a}\``).join(', ')}`);
  }
}

export function requireField(o: Obj, key: string): unknown {
  if (!(key in o) || o[key] === undefined) throw argsError(`missing field \`${key}\``);
  return o[key];
}

export function str(v: unknown, what: string): string {
  if (typeof v !== 'string') throw argsError(`invalid type: ${typeName(v)}, expected ${what}`);
  return v;
}

export function accountId(v: unknown): string {
  const s = str(v, 'an Account ID');
  const err = accountIdError(s);
  if (err !== null) throw argsError(`invalid value: ${JSON.stringify(s)}, ${err}`);
  return s;
}

export function cryptoHash(v: unknown): CryptoHash {
  const s = str(v, 'a base58-encoded 32-byte hash');
  let bytes: Uint8Array;
  try {
    bytes = base58Decode(s);
  } catch {
    throw argsError(`invalid value: ${JSON.stringify(s)}, expected a base58-encoded 32-byte hash`);
  }
  if (bytes.length !== 32)
    throw argsError(`invalid value: ${JSON.stringify(s)}, expected a base58-encoded 32-byte hash`);
  return bytes;
}

export function publicKey(v: unknown): string {
  const s = str(v, 'a public key');
  try {
    parsePublicKey(s);
  } catch (err) {
    throw argsError(`invalid value: ${JSON.stringify(s)}, ${(err as Error).message}`);
  }
  return s.includes(':') ? s : `ed25519:${s}`;
}

export function base64(v: unknown, what = 'base64-encoded bytes'): Uint8Array {
  const s = str(v, what);
  try {
    return fromBase64(s);
  } catch {
    throw argsError(`invalid value: ${JSON.stringify(s.slice(0, 64))}, expected ${what}`);
  }
}

export function u64(v: unknown, what = 'u64'): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw argsError(`invalid type: ${typeName(v)}, expected ${what}`);
  }
  return v;
}

export function blockId(v: unknown): BlockId {
  if (typeof v === 'number') return u64(v, 'a block height');
  // A string is always a hash (serde's untagged BlockId never reads a height from a string).
  if (typeof v === 'string') return cryptoHash(v);
  throw argsError(`invalid type: ${typeName(v)}, expected a block height or hash`);
}

const FINALITIES: readonly Finality[] = ['optimistic', 'near-final', 'final'];

/** The flattened block reference: exactly one of finality, block_id, sync_checkpoint. */
export function blockReference(o: Obj): BlockReference {
  const present = ['finality', 'block_id', 'sync_checkpoint'].filter((k) => o[k] !== undefined);
  if (present.length === 0) throw argsError('missing field `finality` or `block_id` or `sync_checkpoint`');
  if (present.length > 1)
    throw argsError(`${present.map((p) => `\`${p}\``).join(' and ')} are mutually exclusive`);
  if (o.finality !== undefined) {
    const f = o.finality;
    if (typeof f !== 'string' || !FINALITIES.includes(f as Finality)) {
      throw argsError(
        `unknown variant ${typeName(f)}, expected one of \`optimistic\`, \`near-final\`, \`final\``,
      );
    }
    return { finality: f as Finality };
  }
  if (o.block_id !== undefined) return { blockId: blockId(o.block_id) };
  const c = o.sync_checkpoint;
  if (c !== 'genesis' && c !== 'earliest_available') {
    throw argsError(`unknown variant ${typeName(c)}, expected \`genesis\` or \`earliest_available\``);
  }
  return { syncCheckpoint: c };
}

const WAITS: readonly TxExecutionStatus[] = [
  'NONE',
  'INCLUDED',
  'EXECUTED_OPTIMISTIC',
  'INCLUDED_FINAL',
  'EXECUTED',
  'FINAL',
];

export function waitUntil(v: unknown): TxExecutionStatus {
  if (v === undefined || v === null) return 'EXECUTED_OPTIMISTIC';
  if (typeof v !== 'string' || !WAITS.includes(v as TxExecutionStatus)) {
    throw argsError(
      `unknown variant ${typeName(v)}, expected one of ${WAITS.map((w) => `\`${w}\``).join(', ')}`,
    );
  }
  return v as TxExecutionStatus;
}
