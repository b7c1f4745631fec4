// Params parsing with nearcore's (serde's) behaviour and wording. Everything returns typed values or
// throws a PARSE_ERROR RpcError; nothing here trusts the JSON's shape. No nearcore params struct uses
// deny_unknown_fields (only the envelope does), so unknown keys are ignored, as nearcore does.
import {
  accountIdError,
  base58Decode,
  base58Hash,
  type CryptoHash,
  JsonF64,
  KeyType,
  keyTypeName,
  PUBLIC_KEY_LENGTH,
  TX_EXECUTION_STATUSES,
} from '@nearlite/primitives';
import type { BlockId, BlockReference, Finality, TxExecutionStatus } from './backend.js';
import { Base64DecodeError, decodeBase64 } from './base64.js';
import { BS58_OUTSIDE, type Bs58Failure, bs58Decoded, bs58Message } from './bs58.js';
import { argsError } from './errors.js';
import {
  invalidLength,
  invalidType,
  invalidValue,
  missingField,
  noUntaggedMatch,
  unitVariant,
  unknownVariant,
} from './serde.js';

export type Obj = Record<string, unknown>;

/** A JSON object (a float read from the body is an object here too, and no JSON object). */
export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonF64);
}

/** A params struct read from a JSON object (`structName` as in nearcore, for the message). */
export function expectStruct(params: unknown, structName: string): Obj {
  if (!isObj(params)) throw invalidType(params, `struct ${structName}`);
  return params;
}

export function requireField(o: Obj, key: string): unknown {
  if (!Object.hasOwn(o, key)) throw missingField(key);
  return o[key];
}

export function str(v: unknown): string {
  if (typeof v !== 'string') throw invalidType(v, 'a string');
  return v;
}

export function bool(v: unknown): boolean {
  if (typeof v !== 'boolean') throw invalidType(v, 'a boolean');
  return v;
}

/** A u64: a number, or a bigint above 2^53 (the body parser keeps those exact, see json_number.ts). */
export function u64(v: unknown): number | bigint {
  if (typeof v === 'bigint') {
    if (v < 0n) throw invalidValue(v, 'u64');
    return v;
  }
  if (typeof v === 'number' && Number.isInteger(v) && v < 0) throw invalidValue(v, 'u64');
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw invalidType(v, 'u64');
  return v;
}

/** near-account-id's serde: the string, then its validation message. */
export function accountId(v: unknown): string {
  const s = str(v);
  const err = accountIdError(s);
  if (err !== null) throw argsError(`invalid value: "${s}", ${err}`);
  return s;
}

const HASH = 'base58-encoded 256-bit hash';

export function cryptoHash(v: unknown): CryptoHash {
  if (typeof v !== 'string') throw invalidType(v, HASH);
  const bytes = maybeHash(v);
  if (bytes !== null) return bytes;
  // nearcore's CryptoHash visitor: a wrong length (the decoded one, or digits past 32 bytes) is
  // serde's invalid_length of the text's bytes; any other failure is bs58's own text.
  const r = bs58Decoded(v, 32);
  if (typeof r === 'number' || r.kind === 'BufferTooSmall') throw invalidLength(Buffer.byteLength(v), HASH);
  throw argsError(bs58Message(r));
}

/** Like `cryptoHash`, but reports null instead of throwing (for untagged enums). */
function maybeHash(v: string): CryptoHash | null {
  // 32 bytes never take more than 44 base58 digits: longer input is refused before decoding.
  return v.length > 44 ? null : base58Hash(v);
}

/** The key types a request may name, by their text prefix. */
const KEY_LENGTHS: Readonly<Record<string, number>> = {
  ed25519: PUBLIC_KEY_LENGTH[KeyType.ED25519],
  secp256k1: PUBLIC_KEY_LENGTH[KeyType.SECP256K1],
  'ml-dsa-65': PUBLIC_KEY_LENGTH[KeyType.MLDSA65],
};

/**
 * near-crypto's PublicKey parsing, messages included; returns the `type:base58` text, its type
 * lowercased (KeyType::from_str takes any ASCII case: `ED25519:…` is an ed25519 key).
 */
export function publicKey(v: unknown): string {
  const s = str(v);
  const colon = s.indexOf(':');
  const keyType = colon < 0 ? 'ed25519' : keyTypeName(s.slice(0, colon));
  const data = colon < 0 ? s : s.slice(colon + 1);
  const expected = Object.hasOwn(KEY_LENGTHS, keyType) ? KEY_LENGTHS[keyType] : undefined;
  if (expected === undefined) throw argsError(`unknown key type '${keyType}'`);
  const decoded = data.length <= 2 * expected && !BS58_OUTSIDE.test(data) ? base58Decode(data).length : null;
  if (decoded === expected) return `${keyType}:${data}`;
  // decode_bs58_impl: a wrong decoded length, or digits past the key's size (reported as one byte
  // more than it), is a length error; any other failure bs58's own text.
  const r = bs58Decoded(data, expected);
  if (r === expected) return `${keyType}:${data}`;
  const received = typeof r === 'number' ? r : r.kind === 'BufferTooSmall' ? expected + 1 : null;
  if (received === null) throw argsError(`invalid key data: ${bs58Message(r as Bs58Failure)}`);
  throw argsError(`invalid key length: expected the input of ${expected} bytes, but ${received} was given`);
}

/** A base64 field (nearcore's base64_format): the crate's message on failure. */
export function base64(v: unknown): Uint8Array {
  const s = str(v);
  try {
    return decodeBase64(s);
  } catch (err) {
    if (err instanceof Base64DecodeError) throw argsError(err.message);
    throw err;
  }
}

/**
 * The untagged `BlockId`: a u64 height or a base58 hash; a string is never read as a height, nor a
 * float (`5.0`). A height above 2^53 stays a bigint: no chain has a block there, and its errors name
 * it exactly.
 */
export function blockId(v: unknown): BlockId {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'bigint' && v >= 0n) return v;
  const hash = typeof v === 'string' ? maybeHash(v) : null;
  if (hash === null) throw noUntaggedMatch('BlockId');
  return hash;
}

const FINALITIES: readonly Finality[] = ['optimistic', 'near-final', 'final'];
const SYNC_CHECKPOINTS = ['genesis', 'earliest_available'] as const;
const BLOCK_REF_KEYS = ['block_id', 'finality', 'sync_checkpoint'] as const;

/** serde's newtype variant named by a bare string (serde_json's unit form of an enum). */
const NOT_UNIT = 'invalid type: unit variant, expected newtype variant';

function blockReferenceVariant(key: string, value: unknown): BlockReference {
  if (key === 'block_id') return { blockId: blockId(value) };
  if (key === 'finality') return { finality: unitVariant(value, FINALITIES) };
  return { syncCheckpoint: unitVariant(value, SYNC_CHECKPOINTS) };
}

/**
 * The BlockReference flattened into a params struct (`query`, `changes`, `block_effects`, the
 * EXPERIMENTAL_view_* methods): serde's FlatMapDeserializer takes the first of its variants' keys in
 * the document (nearcore's serde_json keeps the order: preserve_order is on in its build) and
 * ignores the rest; none at all is an error.
 */
export function blockReference(o: Obj): BlockReference {
  const key = Object.keys(o).find((k) => (BLOCK_REF_KEYS as readonly string[]).includes(k));
  if (key === undefined) throw argsError('no variant of enum BlockReference found in flattened data');
  return blockReferenceVariant(key, o[key]);
}

/**
 * An externally tagged enum as serde_json reads it from a Value (`block`, `EXPERIMENTAL_protocol_config`
 * and `validators` parse theirs from the params themselves): a map of exactly one key naming the
 * variant, or a string naming it with no value. Returns the variant and its value (undefined for the
 * string form).
 */
export function externallyTagged(v: unknown, variants: readonly string[]): [string, unknown] {
  if (typeof v === 'string') {
    if (!variants.includes(v)) throw unknownVariant(v, variants);
    return [v, undefined];
  }
  if (!isObj(v)) throw invalidType(v, 'string or map');
  const keys = Object.keys(v);
  if (keys.length !== 1) throw invalidValue(v, 'map with a single key');
  const key = keys[0]!;
  if (!variants.includes(key)) throw unknownVariant(key, variants);
  return [key, v[key]];
}

/** The BlockReference enum parsed from the params value itself (not flattened into a struct). */
export function blockReferenceEnum(v: unknown): BlockReference {
  const [key, value] = externallyTagged(v, BLOCK_REF_KEYS);
  if (value === undefined) throw argsError(NOT_UNIT);
  return blockReferenceVariant(key, value);
}

/** An `Option` field as serde reads it: absent and null are both "not given" (undefined). */
export function optionalField<T>(o: Obj, key: string, parse: (v: unknown) => T): T | undefined {
  const v = o[key];
  return v === undefined || v === null ? undefined : parse(v);
}

/** `wait_until`, `#[serde(default)]`: absent means EXECUTED_OPTIMISTIC. */
export function waitUntil(o: Obj): TxExecutionStatus {
  if (!Object.hasOwn(o, 'wait_until')) return 'EXECUTED_OPTIMISTIC';
  return unitVariant(o.wait_until, TX_EXECUTION_STATUSES);
}

/** A tuple read from a JSON array, serde style (`(String,)`, `(BlockId, ShardId)`). */
export function tuple(v: unknown, size: number): unknown[] {
  if (!Array.isArray(v)) throw invalidType(v, `a tuple of size ${size}`);
  if (v.length !== size) throw invalidLength(v.length, `a tuple of size ${size}`);
  return v;
}

/**
 * A params struct as serde's derive reads it: from an object (missing fields come back undefined;
 * the caller says which are required), or from a sequence of its fields in declaration order, every
 * one present and nothing after them.
 */
export function structFields(params: unknown, structName: string, fields: readonly string[]): Obj {
  if (!Array.isArray(params)) return expectStruct(params, structName);
  const n = fields.length;
  if (params.length < n) {
    throw invalidLength(params.length, `struct ${structName} with ${n} element${n === 1 ? '' : 's'}`);
  }
  if (params.length > n) throw invalidLength(params.length, 'fewer elements in array');
  const o: Obj = {};
  fields.forEach((f, i) => {
    o[f] = params[i];
  });
  return o;
}

/** A struct of one `block_id: MaybeBlockId` (gas_price, validators_ordered): null when absent or null. */
export function maybeBlockIdStruct(params: unknown, structName: string): BlockId | null {
  const id = structFields(params, structName, ['block_id']).block_id;
  return id === null || id === undefined ? null : blockId(id);
}
