// serde's error wording, as nearcore's params parsing produces it (`serde_json::from_value` errors,
// prefixed with "Failed parsing args: "). Clients only look at the code and cause name, but people
// read these, so they match what a nearcore node would say for the same mistake.

import { JsonF64, rustDebugString } from '@nearlite/primitives';
import { argsError, type RpcError } from './errors.js';
import { serdeFloatText } from './json_number.js';

/** serde's `Unexpected` rendering of a JSON value. */
export function unexpected(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'sequence';
  if (v instanceof JsonF64) return `floating point \`${serdeFloatText(v.value)}\``;
  switch (typeof v) {
    case 'object':
      return 'map';
    case 'string':
      // serde's Unexpected::Str prints `string {:?}`: quotes, backslashes and controls escaped.
      return `string ${rustDebugString(v)}`;
    case 'boolean':
      return `boolean \`${v}\``;
    case 'number':
      return Number.isInteger(v) ? `integer \`${v}\`` : `floating point \`${serdeFloatText(v)}\``;
    case 'bigint':
      return `integer \`${v}\``;
    default:
      return String(v);
  }
}

/** serde's `OneOf` list: "`a`", "`a` or `b`", "one of `a`, `b`, `c`". */
export function oneOf(names: readonly string[]): string {
  const quoted = names.map((n) => `\`${n}\``);
  if (quoted.length === 1) return quoted[0]!;
  if (quoted.length === 2) return `${quoted[0]} or ${quoted[1]}`;
  return `one of ${quoted.join(', ')}`;
}

export function invalidType(v: unknown, expected: string): RpcError {
  return argsError(`invalid type: ${unexpected(v)}, expected ${expected}`);
}

export function invalidValue(v: unknown, expected: string): RpcError {
  return argsError(`invalid value: ${unexpected(v)}, expected ${expected}`);
}

export function invalidLength(len: number, expected: string): RpcError {
  return argsError(`invalid length ${len}, expected ${expected}`);
}

export function missingField(name: string): RpcError {
  return argsError(`missing field \`${name}\``);
}

export function unknownVariant(name: string, variants: readonly string[]): RpcError {
  return argsError(`unknown variant \`${name}\`, expected ${oneOf(variants)}`);
}

/** An untagged enum (e.g. BlockId, ChunkReference) that matched none of its forms. */
export function noUntaggedMatch(enumName: string): RpcError {
  return argsError(`data did not match any variant of untagged enum ${enumName}`);
}

/** A unit-variant enum read from a JSON value: a string naming one of `variants`. */
export function unitVariant<T extends string>(v: unknown, variants: readonly T[]): T {
  if (typeof v !== 'string') {
    // serde_json reads an enum from a string or a single-key map only.
    throw invalidType(v, 'string or map');
  }
  if (!(variants as readonly string[]).includes(v)) throw unknownVariant(v, variants);
  return v as T;
}
