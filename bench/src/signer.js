// Signs transactions in the load generator with node:crypto's ed25519, about fifty times faster
// than near-api-js' pure-JS signer, so signing does not eat the core the node is measured on.
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { baseDecode, encodeTransaction } from 'near-api-js';

const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/** Returns tx → base64 of the borsh SignedTransaction. */
export function fastSigner(keyPair) {
  const seed = baseDecode(keyPair.toString().split(':')[1]).subarray(0, 32);
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
  return (tx) => {
    const bytes = encodeTransaction(tx);
    const signature = sign(null, createHash('sha256').update(bytes).digest(), key);
    // SignedTransaction = Transaction ‖ Signature::ED25519 (tag 0, 64 bytes).
    return Buffer.concat([bytes, Buffer.of(0), signature]).toString('base64');
  };
}
