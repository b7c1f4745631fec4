import { base58Decode, base58Encode } from './base58.js';
import type { BorshReader, BorshWriter } from './borsh.js';
import { BorshError } from './borsh.js';

export const KeyType = { ED25519: 0, SECP256K1: 1 } as const;
export type KeyType = (typeof KeyType)[keyof typeof KeyType];

const KEY_LEN: Record<KeyType, number> = { 0: 32, 1: 64 };
const SIG_LEN: Record<KeyType, number> = { 0: 64, 1: 65 };
const PREFIX: Record<KeyType, string> = { 0: 'ed25519', 1: 'secp256k1' };

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

function parseTyped(
  text: string,
  lens: Record<KeyType, number>,
  what: string,
): { keyType: KeyType; data: Uint8Array } {
  const colon = text.indexOf(':');
  let keyType: KeyType = KeyType.ED25519;
  let body = text;
  if (colon >= 0) {
    const prefix = text.slice(0, colon);
    body = text.slice(colon + 1);
    if (prefix === 'ed25519') keyType = KeyType.ED25519;
    else if (prefix === 'secp256k1') keyType = KeyType.SECP256K1;
    else throw new KeyParseError(`unknown key type '${prefix}'`);
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

export function parsePublicKey(text: string): PublicKey {
  return parseTyped(text, KEY_LEN, 'public key');
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

export function readPublicKey(r: BorshReader): PublicKey {
  const t = r.u8();
  if (t !== 0 && t !== 1) throw new BorshError(`unknown public key type ${t}`);
  return { keyType: t, data: r.fixed(KEY_LEN[t]).slice() };
}

export function writeSignature(w: BorshWriter, sig: Signature): void {
  w.u8(sig.keyType).fixed(sig.data);
}

export function readSignature(r: BorshReader): Signature {
  const t = r.u8();
  if (t !== 0 && t !== 1) throw new BorshError(`unknown signature type ${t}`);
  return { keyType: t, data: r.fixed(SIG_LEN[t]).slice() };
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
