// A client that sends a transaction to the producer and asks a follower for it at once, before the
// follower can have it, waits there as it would on nearcore's RPC: the follower answers once the
// blocks it follows take the transaction to the level asked for, with the producer's own answer.
// A transaction that never comes is TIMEOUT_ERROR (HTTP 408) at the follower's polling timeout.
import { join } from 'node:path';
import {
  actions as A,
  baseDecode,
  createTransaction,
  JsonRpcProvider,
  KeyPairSigner,
  type KeyPairString,
} from 'near-api-js';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { editConfig, initHome, startNode, waitForHeight } from './helpers/node.js';
import { TX_TIMEOUT } from './helpers/rpc_errors.js';

t.test('a follower waits for a transaction as nearcore does', async (t) => {
  const chain = await localChain(t, { blockTimeMs: 150 });
  const { node: producer, key } = chain;
  const followerHome = join(chain.home, 'follower');
  initHome(followerHome, ['--genesis', join(chain.home, 'genesis.json')]);
  editConfig(followerHome, (c) => ({
    ...c,
    rpc: { ...c.rpc, polling_config: { ...c.rpc.polling_config, polling_timeout: { secs: 5, nanos: 0 } } },
  }));
  const follower = await startNode(followerHome, ['--follow', producer.url]);
  t.teardown(() => follower.stop());
  const final = async () =>
    (await producer.rpc<{ header: { height: number; hash: string } }>('block', { finality: 'final' })).body
      .result!.header;
  await waitForHeight(follower, (await final()).height, 60_000);

  const signer = KeyPairSigner.fromSecretKey(key.secret_key as KeyPairString);
  const pk = await signer.getPublicKey();
  const ak = await producer.rpc<{ nonce: number }>('query', {
    request_type: 'view_access_key',
    account_id: 'test.near',
    public_key: pk.toString(),
    finality: 'optimistic',
  });
  // To an implicit account, which the transfer creates: a receipt on its own, then a refund.
  const receiver = `${'0'.repeat(63)}1`;
  const tx = createTransaction(
    'test.near',
    pk,
    receiver,
    BigInt(ak.body.result!.nonce) + 1n,
    [A.transfer(10n ** 21n)],
    baseDecode((await final()).hash),
  );
  const b64 = Buffer.from((await signer.signTransaction(tx)).signedTransaction.encode()).toString('base64');
  const hash = (await producer.rpc<string>('broadcast_tx_async', [b64])).body.result!;
  const asked = { tx_hash: hash, sender_account_id: 'test.near' };
  const notYet = await follower.rpc('tx', { ...asked, wait_until: 'NONE' });
  t.equal(notYet.body.error?.cause.name, 'UNKNOWN_TRANSACTION', 'the follower has not followed it yet');

  // near-api-js, pointed at the follower, asks for FINAL and gets it.
  const client = new JsonRpcProvider({ url: follower.url });
  const [viaClient, viaRpc] = await Promise.all([
    client.viewTransactionStatus({ txHash: hash, accountId: 'test.near', waitUntil: 'FINAL' }),
    follower.rpc('EXPERIMENTAL_tx_status', { ...asked, wait_until: 'EXECUTED' }),
  ]);
  const status = viaClient as unknown as { final_execution_status?: string; finalExecutionStatus?: string };
  t.equal(status.final_execution_status ?? status.finalExecutionStatus, 'FINAL', 'near-api-js got FINAL');
  const own = await producer.rpc('EXPERIMENTAL_tx_status', { ...asked, wait_until: 'FINAL' });
  const seen = viaRpc.body.result as { final_execution_status: string; receipts_outcome: unknown[] };
  t.match(seen.final_execution_status, /^(EXECUTED|FINAL)$/, 'EXECUTED asked, at least EXECUTED answered');
  t.ok(seen.receipts_outcome.length > 0, 'with the receipt that ran');
  const now = await follower.rpc('EXPERIMENTAL_tx_status', { ...asked, wait_until: 'FINAL' });
  t.same(now.body, own.body, "the FINAL answer is the producer's own");

  const never = { tx_hash: '11111111111111111111111111111111', sender_account_id: 'test.near' };
  const started = Date.now();
  const timedOut = await follower.rpc('tx', { ...never, wait_until: 'INCLUDED' });
  t.equal(timedOut.status, 408);
  t.same(timedOut.body.error, TX_TIMEOUT);
  t.ok(Date.now() - started >= 4_000, 'after the configured polling timeout, not at once');
});
