// The fields of nearcore's serde JSON as its deserializers take them, each checked — type, length,
// range — with the path of what is wrong in the error, for state records and the receipts in them.
import {
  type AccessKey,
  base58Decode,
  fromBase64,
  type GasKeyInfo,
  JsonF64,
  type PublicKey,
  parseAccountId,
  parsePublicKeyHandle,
  U64_MAX,
  U128_MAX,
} from '@nearlite/primitives';

export class StateRecordError extends Error {
  override readonly name = 'StateRecordError';
}

export type Obj = Record<string, unknown>;

export function fail(path: string, what: string): never {
  throw new StateRecordError(`${path}: ${what}`);
}

export function obj(v: unknown, path: string): Obj {
  // A float from a request's body is a JsonF64 (the RPC's body parser), and no object.
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof JsonF64)
    fail(path, 'expected an object');
  return v as Obj;
}

export function str(o: Obj, k: string, path: string): string {
  const v = o[k];
  if (v === undefined) fail(path, `missing field \`${k}\``);
  if (typeof v !== 'string') fail(`${path}.${k}`, 'expected a string');
  return v;
}

/** nearcore's dec_format: a u128 as a decimal string (or a JSON integer). */
export function u128(o: Obj, k: string, path: string): bigint {
  const v = o[k];
  if (v === undefined) fail(path, `missing field \`${k}\``);
  let n: bigint;
  if (typeof v === 'string' && /^\d{1,39}$/.test(v)) n = BigInt(v);
  else if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) n = BigInt(v);
  else if (typeof v === 'bigint' && v >= 0n) n = v;
  else fail(`${path}.${k}`, 'expected a u128 as a decimal string');
  if (n > U128_MAX) fail(`${path}.${k}`, 'out of range for u128');
  return n;
}

export function u64(o: Obj, k: string, path: string): bigint {
  const v = o[k];
  if (v === undefined) fail(path, `missing field \`${k}\``);
  // A request's body holds an integer above 2^53 as a bigint, exactly (the RPC's body parser).
  const n = typeof v === 'bigint' ? v : typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : -1n;
  if (n < 0n) fail(`${path}.${k}`, 'expected a u64');
  if (n > U64_MAX) fail(`${path}.${k}`, 'out of range for u64');
  return n;
}

export function base64(o: Obj, k: string, path: string): Uint8Array {
  const text = str(o, k, path);
  try {
    return fromBase64(text);
  } catch {
    fail(`${path}.${k}`, 'expected base64');
  }
}

export function hash32(o: Obj, k: string, path: string): Uint8Array {
  const text = str(o, k, path);
  let bytes: Uint8Array;
  try {
    bytes = base58Decode(text);
  } catch {
    fail(`${path}.${k}`, 'expected a base58 hash');
  }
  if (bytes.length !== 32) fail(`${path}.${k}`, `expected a hash of 32 bytes, got ${bytes.length}`);
  return bytes;
}

/** A string field read by `parse`, whose error is the field's. */
export function parsed<T>(o: Obj, k: string, path: string, parse: (text: string) => T): T {
  const text = str(o, k, path);
  try {
    return parse(text);
  } catch (err) {
    fail(`${path}.${k}`, (err as Error).message);
  }
}

export const accountId = (o: Obj, k: string, path: string): string => parsed(o, k, path, parseAccountId);

/** A key as the trie names it (an ML-DSA-65 key by its handle). */
export const publicKey = (o: Obj, k: string, path: string): PublicKey =>
  parsed(o, k, path, parsePublicKeyHandle);

export function accessKey(v: unknown, path: string): AccessKey {
  const o = obj(v, path);
  const nonce = u64(o, 'nonce', path);
  const perm = o.permission;
  if (perm === undefined) fail(path, 'missing field `permission`');
  if (perm === 'FullAccess') return { nonce, permission: { kind: 'FullAccess' } };
  const p = obj(perm, `${path}.permission`);
  const keys = Object.keys(p);
  const variant = keys[0];
  if (
    keys.length !== 1 ||
    (variant !== 'FunctionCall' && variant !== 'GasKeyFunctionCall' && variant !== 'GasKeyFullAccess')
  )
    fail(
      `${path}.permission`,
      'expected `FullAccess`, `{"FunctionCall": …}`, `{"GasKeyFunctionCall": …}` or `{"GasKeyFullAccess": …}`',
    );
  let fcPath = `${path}.permission.${variant}`;
  let fc: Obj;
  let gasKey: GasKeyInfo | undefined;
  const body = p[variant];
  if (variant === 'GasKeyFunctionCall' && Array.isArray(body)) {
    // nearcore's serde of the tuple variant: [GasKeyInfo, FunctionCallPermission].
    if (body.length !== 2) fail(fcPath, 'expected a tuple of 2 elements');
    gasKey = gasKeyInfo(obj(body[0], `${fcPath}[0]`), `${fcPath}[0]`);
    fcPath = `${fcPath}[1]`;
    fc = obj(body[1], fcPath);
  } else {
    // The view's one object, which earlier dumps of this node wrote.
    fc = obj(body, fcPath);
    gasKey = variant === 'FunctionCall' ? undefined : gasKeyInfo(fc, fcPath);
  }
  if (gasKey && variant === 'GasKeyFullAccess') return { nonce, permission: { kind: 'FullAccess', gasKey } };
  const allowance =
    fc.allowance === null || fc.allowance === undefined ? null : u128(fc, 'allowance', fcPath);
  const names = fc.method_names;
  if (!Array.isArray(names) || names.some((m) => typeof m !== 'string'))
    fail(`${fcPath}.method_names`, 'expected a sequence of strings');
  return {
    nonce,
    permission: {
      kind: 'FunctionCall',
      allowance,
      receiverId: accountId(fc, 'receiver_id', fcPath),
      methodNames: [...(names as string[])],
      ...(gasKey ? { gasKey } : {}),
    },
  };
}

export function gasKeyInfo(o: Obj, path: string): GasKeyInfo {
  const n = u64(o, 'num_nonces', path);
  if (n > 0xffffn) fail(`${path}.num_nonces`, 'out of range for u16');
  return { balance: u128(o, 'balance', path), numNonces: Number(n) };
}
