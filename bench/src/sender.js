// Signs transactions with explicit consecutive nonces and submits them in nonce order without
// waiting (wait_until NONE), then waits for all of them: many transactions per key, no nonce races.
import { baseDecode, createTransaction, KeyPairSigner } from 'near-api-js';
import { rpc } from './node_process.js';

export async function sendBatch(url, keyPair, signerId, txs, waitUntil = 'EXECUTED_OPTIMISTIC') {
  const signer = new KeyPairSigner(keyPair);
  const pk = keyPair.getPublicKey();
  const ak = await rpc(url, 'query', {
    request_type: 'view_access_key',
    account_id: signerId,
    public_key: pk.toString(),
    finality: 'optimistic',
  });
  const blockHash = baseDecode((await rpc(url, 'block', { finality: 'final' })).header.hash);
  let nonce = BigInt(ak.nonce);
  const signed = [];
  for (const { receiverId, actions } of txs) {
    const tx = createTransaction(signerId, pk, receiverId, ++nonce, actions, blockHash);
    const { signedTransaction, txHash } = await signer.signTransaction(tx);
    signed.push({ b64: Buffer.from(signedTransaction.encode()).toString('base64'), hash: txHash });
  }
  for (const s of signed) await rpc(url, 'send_tx', { signed_tx_base64: s.b64, wait_until: 'NONE' });
  const { baseEncode } = await import('near-api-js');
  return Promise.all(
    signed.map((s) =>
      rpc(url, 'tx', { tx_hash: baseEncode(s.hash), sender_account_id: signerId, wait_until: waitUntil }),
    ),
  );
}
