import { createHash } from 'node:crypto';
import { base58Decode, base58Encode } from './base58.js';
import type { BorshReader, BorshWriter } from './borsh.js';
import { BorshError } from './borsh.js';

/**
 * near-crypto's key types by borsh tag. `MLDSA65_HASH` is not a key a transaction can carry: it is
 * the on-trie handle of an ML-DSA-65 key (nearcore's `PublicKeyHandle::MlDsa65Hash`), the digest its
 * access keys are stored and listed under.
 */
export const KeyType = { ED25519: 0, SECP256K1: 1, MLDSA65: 2, MLDSA65_HASH: 3 } as const;
export type KeyType = (typeof KeyType)[keyof typeof KeyType];

/** Bytes of a key's data by its type (a handle's digest for `MLDSA65_HASH`). */
export const PUBLIC_KEY_LENGTH: Readonly<Record<KeyType, number>> = { 0: 32, 1: 64, 2: 1952, 3: 32 };
/** Bytes of a signature's data by its key type (no signature is made with a handle). */
export const SIGNATURE_LENGTH: Readonly<Record<number, number>> = { 0: 64, 1: 65, 2: 3309 };
const PREFIX: Record<KeyType, string> = { 0: 'ed25519', 1: 'secp256k1', 2: 'ml-dsa-65', 3: 'ml-dsa-65-hash' };
/** Hashed before an ML-DSA-65 key's bytes to make its trie handle (near-crypto's `HashDomainTag`). */
const ML_DSA_65_HANDLE_DOMAIN = new TextEncoder().encode('near:ml-dsa-65-pubkey-hash:v1');

export class KeyParseError extends Error {
  override readonly name = 'KeyParseError';
}

export interface PublicKey {
  readonly keyType: KeyType;
  readonly data: Uint8Array;
}

export interface Signature {
  readonly keyType: KeyType;
  readonly data: Uint8Array;
}

/**
 * A key type's name as near-crypto's KeyType::from_str reads it: any ASCII case, lowercased (other
 * letters left as they are), which is also how it names a type it refuses.
 */
export function keyTypeName(prefix: string): string {
  return prefix.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function parseTyped(
  text: string,
  lens: Record<number, number>,
  what: string,
  allowed: readonly KeyType[],
): { keyType: KeyType; data: Uint8Array } {
  const colon = text.indexOf(':');
  let keyType: KeyType = KeyType.ED25519;
  let body = text;
  if (colon >= 0) {
    const prefix = keyTypeName(text.slice(0, colon));
    body = text.slice(colon + 1);
    const t = allowed.find((k) => PREFIX[k] === prefix);
    if (t === undefined) {
      if (prefix === PREFIX[KeyType.MLDSA65])
        throw new KeyParseError(
          'full ML-DSA-65 keys cannot appear in a PublicKeyHandle; use the `ml-dsa-65-hash:` form instead',
        );
      throw new KeyParseError(`unknown key type '${prefix}'`);
    }
    keyType = t;
  }
  let data: Uint8Array;
  try {
    data = base58Decode(body);
  } catch {
    throw new KeyParseError(`invalid ${what} '${text}': not base58`);
  }
  if (data.length !== lens[keyType]) {
    throw new KeyParseError(
      `invalid ${what} length ${data.length} for ${PREFIX[keyType]}, expected ${lens[keyType]}`,
    );
  }
  return { keyType, data };
}

const WIRE_TYPES: readonly KeyType[] = [KeyType.ED25519, KeyType.SECP256K1, KeyType.MLDSA65];
const HANDLE_TYPES: readonly KeyType[] = [KeyType.ED25519, KeyType.SECP256K1, KeyType.MLDSA65_HASH];

/** A key as transactions, actions and requests carry it (`ed25519:`, `secp256k1:`, `ml-dsa-65:`). */
export function parsePublicKey(text: string): PublicKey {
  return parseTyped(text, PUBLIC_KEY_LENGTH, 'public key', WIRE_TYPES);
}

/** A signature as views and records write it (`ed25519:`, `secp256k1:`, `ml-dsa-65:` and base58). */
export function parseSignature(text: string): Signature {
  return parseTyped(text, SIGNATURE_LENGTH, 'signature', WIRE_TYPES);
}

/**
 * A key as state records, state changes and access-key lists name it: an ML-DSA-65 key only by
 * its `ml-dsa-65-hash:` handle, never in full.
 */
export function parsePublicKeyHandle(text: string): PublicKey {
  return parseTyped(text, PUBLIC_KEY_LENGTH, 'public key', HANDLE_TYPES);
}

/**
 * What the trie stores a key under: itself, or for ML-DSA-65 the sha3-256 of the domain tag and
 * the key (33 bytes with the tag, like an ed25519 key, where the key itself would take 1,953).
 */
export function publicKeyHandle(pk: PublicKey): PublicKey {
  if (pk.keyType !== KeyType.MLDSA65) return pk;
  const h = createHash('sha3-256').update(ML_DSA_65_HANDLE_DOMAIN).update(pk.data);
  return { keyType: KeyType.MLDSA65_HASH, data: new Uint8Array(h.digest()) };
}

/** Bytes a key's handle takes in a trie key (nearcore's `trie_id_len`): what storage is paid for. */
export function publicKeyTrieIdLength(pk: PublicKey): number {
  return 1 + (pk.keyType === KeyType.MLDSA65 ? 32 : pk.data.length);
}

export function formatPublicKey(pk: PublicKey): string {
  return `${PREFIX[pk.keyType]}:${base58Encode(pk.data)}`;
}

export function formatSignature(sig: Signature): string {
  return `${PREFIX[sig.keyType]}:${base58Encode(sig.data)}`;
}

export function writePublicKey(w: BorshWriter, pk: PublicKey): void {
  w.u8(pk.keyType).fixed(pk.data);
}

/** A `PublicKey` (tags 0, 1, 2): what transactions, actions and receipts carry. */
export function readPublicKey(r: BorshReader): PublicKey {
  const t = r.u8();
  // near-crypto's words: KeyType::try_from's ParseKeyTypeError, for keys and signatures alike.
  if (t !== 0 && t !== 1 && t !== 2) throw new BorshError(`unknown key type '${t}'`);
  return { keyType: t, data: r.fixed(PUBLIC_KEY_LENGTH[t]).slice() };
}

/** A `PublicKeyHandle` (tags 0, 1, 3): what an access key's trie key ends with. */
export function readPublicKeyHandle(r: BorshReader): PublicKey {
  const t = r.u8();
  if (t !== 0 && t !== 1 && t !== 3) throw new BorshError(`unknown public key handle type ${t}`);
  return { keyType: t, data: r.fixed(PUBLIC_KEY_LENGTH[t]).slice() };
}

export function writeSignature(w: BorshWriter, sig: Signature): void {
  w.u8(sig.keyType).fixed(sig.data);
}

export function readSignature(r: BorshReader): Signature {
  const t = r.u8();
  if (t !== 0 && t !== 1 && t !== 2) throw new BorshError(`unknown key type '${t}'`);
  const data = r.fixed(SIGNATURE_LENGTH[t]!).slice();
  // near-crypto refuses an ed25519 signature with any of the top three bits of its last byte set
  // when it decodes one (a check ed25519-dalek made before its version 2), before any verification:
  // no canonical signature has them.
  if (t === 0 && (data[63]! & 0b1110_0000) !== 0) throw new BorshError('signature error');
  return { keyType: t, data };
}

/** borsh bytes of a public key (1 type byte + raw key). */
export function publicKeyBytes(pk: PublicKey): Uint8Array {
  const out = new Uint8Array(1 + pk.data.length);
  out[0] = pk.keyType;
  out.set(pk.data, 1);
  return out;
}

export function publicKeyEquals(a: PublicKey, b: PublicKey): boolean {
  if (a.keyType !== b.keyType || a.data.length !== b.data.length) return false;
  for (let i = 0; i < a.data.length; i++) if (a.data[i] !== b.data[i]) return false;
  return true;
}
