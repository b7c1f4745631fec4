// Signs transactions with explicit consecutive nonces and submits each in nonce order without
// waiting (wait_until NONE): many transactions per key, no nonce races.
import { baseDecode, baseEncode, createTransaction, KeyPairSigner } from 'near-api-js';
import { rpc } from './node_process.js';

/** Signs and sends `txs` one after another without waiting for any; returns their hashes. */
async function submit(url, keyPair, signerId, txs) {
  const signer = new KeyPairSigner(keyPair);
  const pk = keyPair.getPublicKey();
  const ak = await rpc(url, 'query', {
    request_type: 'view_access_key',
    account_id: signerId,
    public_key: pk.toString(),
    finality: 'optimistic',
  });
  let nonce = BigInt(ak.nonce);
  const hashes = [];
  let blockHash = null;
  // Signed just before it is sent, against a recent final block: at 10 ms blocks, a hash read
  // before signing a hundred transactions on a busy machine can fall out of the validity period.
  for (const [i, { receiverId, actions }] of txs.entries()) {
    if (i % 10 === 0) blockHash = baseDecode((await rpc(url, 'block', { finality: 'final' })).header.hash);
    const tx = createTransaction(signerId, pk, receiverId, ++nonce, actions, blockHash);
    const { signedTransaction, txHash } = await signer.signTransaction(tx);
    const b64 = Buffer.from(signedTransaction.encode()).toString('base64');
    await rpc(url, 'send_tx', { signed_tx_base64: b64, wait_until: 'NONE' });
    hashes.push(baseEncode(txHash));
  }
  return hashes;
}

const status = (url, hash, signerId, waitUntil) =>
  rpc(url, 'tx', { tx_hash: hash, sender_account_id: signerId, wait_until: waitUntil });

/** Submits `txs`, then waits for every one of them; returns their outcomes. */
export async function sendBatch(url, keyPair, signerId, txs, waitUntil = 'EXECUTED_OPTIMISTIC') {
  const hashes = await submit(url, keyPair, signerId, txs);
  return Promise.all(hashes.map((h) => status(url, h, signerId, waitUntil)));
}

/**
 * Submits `txs` (a steady stream of transactions), then waits for the last one to be final: the
 * signer's transactions execute in nonce order.
 */
export async function sendStream(url, keyPair, signerId, txs) {
  const hashes = await submit(url, keyPair, signerId, txs);
  if (hashes.length > 0) await status(url, hashes.at(-1), signerId, 'FINAL');
}
