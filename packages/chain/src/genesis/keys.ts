// ed25519 key files in nearcore's format: `secret_key` = "ed25519:" + base58(seed ‖ public key).
import { createPrivateKey, createPublicKey, type KeyObject, randomBytes, sign } from 'node:crypto';
import {
  base58Decode,
  base58Encode,
  KeyType,
  type PublicKey,
  type Signature,
  sodium,
} from '@nearlite/primitives';

const PKCS8_ED25519_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);

export interface KeyFile {
  readonly account_id: string;
  readonly public_key: string;
  readonly secret_key: string;
}

export interface Signer {
  readonly accountId: string;
  readonly publicKey: PublicKey;
  sign(message: Uint8Array): Signature;
}

function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  const der = new Uint8Array(PKCS8_ED25519_PREFIX.length + 32);
  der.set(PKCS8_ED25519_PREFIX);
  der.set(seed, PKCS8_ED25519_PREFIX.length);
  return createPrivateKey({ key: Buffer.from(der), format: 'der', type: 'pkcs8' });
}

/** The raw 32-byte key: the last bytes of its SubjectPublicKeyInfo DER. */
function rawPublicKey(priv: KeyObject): Uint8Array {
  const spki = createPublicKey(priv).export({ format: 'der', type: 'spki' });
  return new Uint8Array(spki.subarray(spki.length - 32));
}

// Node 20's key generation jobs and its JWK export can deadlock: exporting a JWK allocates while it
// holds a key's lock, and a collection run by that allocation may finalize an earlier key generation
// job, which takes the same lock (seen hanging `init` for good). So keys are made from a random seed
// and read back as DER, with neither a generation job nor a JWK involved.
export function generateKeyFile(accountId: string): KeyFile {
  return keyFileOfSeed(accountId, new Uint8Array(randomBytes(32)));
}

/**
 * nearcore's `InMemorySigner::from_seed` for ed25519 (`init --test-seed`): the seed text's bytes,
 * cut to 32 or padded with spaces, are the secret key's seed.
 */
export function keyFileFromTestSeed(accountId: string, testSeed: string): KeyFile {
  const bytes = new TextEncoder().encode(testSeed).subarray(0, 32);
  const seed = new Uint8Array(32).fill(0x20);
  seed.set(bytes);
  return keyFileOfSeed(accountId, seed);
}

function keyFileOfSeed(accountId: string, seed: Uint8Array): KeyFile {
  const pub = rawPublicKey(privateKeyFromSeed(seed));
  const sk = new Uint8Array(64);
  sk.set(seed);
  sk.set(pub, 32);
  return {
    account_id: accountId,
    public_key: `ed25519:${base58Encode(pub)}`,
    secret_key: `ed25519:${base58Encode(sk)}`,
  };
}

export class KeyFileError extends Error {
  override readonly name = 'KeyFileError';
}

/** Builds a signer from a key file (`secret_key`, or the legacy `private_key`). */
export function signerFromKeyFile(file: {
  account_id?: string;
  secret_key?: string;
  private_key?: string;
}): Signer {
  const text = file.secret_key ?? file.private_key;
  if (typeof text !== 'string' || !text.startsWith('ed25519:'))
    throw new KeyFileError('key file has no ed25519 secret_key');
  const bytes = base58Decode(text.slice('ed25519:'.length));
  if (bytes.length !== 64 && bytes.length !== 32)
    throw new KeyFileError('key file secret_key has the wrong length');
  const priv = privateKeyFromSeed(bytes.subarray(0, 32));
  const pub = rawPublicKey(priv);
  // libsodium's secret key is seed ‖ public key, the key derived here rather than the file's half.
  const secret = new Uint8Array(64);
  secret.set(bytes.subarray(0, 32));
  secret.set(pub, 32);
  const lib = sodium();
  return {
    accountId: file.account_id ?? '',
    publicKey: { keyType: KeyType.ED25519, data: pub },
    // ed25519 signatures are deterministic (RFC 8032): both libraries give the same bytes.
    sign(message: Uint8Array): Signature {
      if (lib) {
        const data = new Uint8Array(64);
        lib.crypto_sign_detached(data, message, secret);
        return { keyType: KeyType.ED25519, data };
      }
      const sig = sign(null, message, priv);
      return { keyType: KeyType.ED25519, data: new Uint8Array(sig.buffer, sig.byteOffset, sig.byteLength) };
    },
  };
}
