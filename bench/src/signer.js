// Signs transactions in the load generator with node:crypto's ed25519, about fifty times faster
// than near-api-js' pure-JS signer, so signing does not eat the core the node is measured on.
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { baseDecode } from 'near-api-js';

const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

function privateKey(keyPair) {
  const seed = baseDecode(keyPair.toString().split(':')[1]).subarray(0, 32);
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, seed]), format: 'der', type: 'pkcs8' });
}

// SignedTransaction = Transaction ‖ Signature::ED25519 (tag 0, 64 bytes).
const signed = (bytes, key) =>
  Buffer.concat([bytes, Buffer.of(0), sign(null, createHash('sha256').update(bytes).digest(), key)]);

const borshString = (s) => {
  const b = Buffer.from(s, 'utf8');
  const out = Buffer.alloc(4 + b.length);
  out.writeUInt32LE(b.length, 0);
  b.copy(out, 4);
  return out;
};

/**
 * Returns (signerId, receiverId, nonce, blockHash, deposit) → base64 of a signed one-Transfer
 * transaction, borsh-encoded by hand: the generator's own cost per transfer is part of what the
 * machine's two cores are shared by, and near-api-js' generic encoder was most of it.
 * `test/bench_signer.test.ts` checks the bytes against near-api-js' encoding.
 */
export function fastTransferSigner(keyPair) {
  const key = privateKey(keyPair);
  // PublicKey::ED25519 = tag 0 ‖ 32 bytes.
  const publicKey = Buffer.concat([
    Buffer.of(0),
    baseDecode(keyPair.getPublicKey().toString().split(':')[1]),
  ]);
  const ids = new Map();
  const id = (s) => {
    let b = ids.get(s);
    if (!b) {
      b = borshString(s);
      ids.set(s, b);
    }
    return b;
  };
  return (signerId, receiverId, nonce, blockHash, deposit) => {
    const s = id(signerId);
    const r = id(receiverId);
    // signer ‖ public key ‖ nonce u64 ‖ receiver ‖ block hash ‖ actions: vec of 1 ‖ Transfer (3) ‖ u128
    const tx = Buffer.allocUnsafe(s.length + 33 + 8 + r.length + 32 + 4 + 1 + 16);
    let at = s.copy(tx, 0);
    at += publicKey.copy(tx, at);
    tx.writeBigUInt64LE(nonce, at);
    at += 8;
    at += r.copy(tx, at);
    tx.set(blockHash, at);
    at += 32;
    tx.writeUInt32LE(1, at);
    tx[at + 4] = 3;
    tx.writeBigUInt64LE(deposit & 0xffffffffffffffffn, at + 5);
    tx.writeBigUInt64LE(deposit >> 64n, at + 13);
    return signed(tx, key).toString('base64');
  };
}
