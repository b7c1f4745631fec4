// `ed25519:<base58>` / `secp256k1:<base58>` signatures as views write them.
import { base58Decode, KeyType, type Signature } from '@nearlite/primitives';
import { HeaderViewError } from './header_errors.js';

const SIGNATURE_LENGTH = { [KeyType.ED25519]: 64, [KeyType.SECP256K1]: 65 } as const;

export function parseSignatureText(text: string): Signature {
  const colon = text.indexOf(':');
  const prefix = colon < 0 ? 'ed25519' : text.slice(0, colon);
  const keyType = prefix === 'ed25519' ? KeyType.ED25519 : prefix === 'secp256k1' ? KeyType.SECP256K1 : null;
  if (keyType === null) throw new HeaderViewError(`unknown signature type '${prefix}'`);
  const data = base58Decode(text.slice(colon + 1));
  if (data.length !== SIGNATURE_LENGTH[keyType]) {
    throw new HeaderViewError(`signature of ${data.length} bytes for ${prefix}`);
  }
  return { keyType, data };
}
