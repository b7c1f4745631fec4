// A node stopped while clients wait on transactions answers them at once with nearcore's
// TIMEOUT_ERROR (no block will come to answer them otherwise), rather than hold its stop for the
// whole polling timeout.
import { actions as A, baseDecode, createTransaction, KeyPairSigner, type KeyPairString } from 'near-api-js';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { rawRpc } from './helpers/node.js';
import { TX_TIMEOUT } from './helpers/rpc_errors.js';

t.test('a stop answers the clients waiting on transactions and ends promptly', async (t) => {
  // A polling timeout far longer than the stop may take.
  const chain = await localChain(t, {
    blockTimeMs: 1000,
    rpc: { polling_config: { polling_timeout: { secs: 40, nanos: 0 } } },
  });
  const { node, key } = chain;
  const signer = KeyPairSigner.fromSecretKey(key.secret_key as KeyPairString);
  const pk = await signer.getPublicKey();
  const ak = await node.rpc<{ nonce: number }>('query', {
    request_type: 'view_access_key',
    account_id: 'test.near',
    public_key: pk.toString(),
    finality: 'optimistic',
  });
  const head = await node.rpc<{ header: { hash: string } }>('block', { finality: 'final' });
  const tx = createTransaction(
    'test.near',
    pk,
    'test.near',
    BigInt(ak.body.result!.nonce) + 1n,
    [A.transfer(1n)],
    baseDecode(head.body.result!.header.hash),
  );
  const b64 = Buffer.from((await signer.signTransaction(tx)).signedTransaction.encode()).toString('base64');
  // FINAL takes blocks a second apart to reach: the client is still waiting when the node stops.
  const waiting = rawRpc(node.url, 'send_tx', { signed_tx_base64: b64, wait_until: 'FINAL' });
  await new Promise((r) => setTimeout(r, 300));
  const started = Date.now();
  const exited = node.stop();
  const answer = await waiting;
  t.equal(answer.status, 408);
  t.same(JSON.parse(answer.body).error, TX_TIMEOUT, "nearcore's TIMEOUT_ERROR");
  t.equal(await exited, 0, 'a clean stop');
  const took = Date.now() - started;
  t.ok(took < 20_000, `the stop took ${took} ms, not the 40 s polling timeout nor the 72 s keep-alive`);
});
