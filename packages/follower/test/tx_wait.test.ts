// `tx` and `EXPERIMENTAL_tx_status` on a follower wait for their `wait_until` as nearcore's RPC does:
// until the followed blocks take the transaction there, or TIMEOUT_ERROR (HTTP 408) at the polling
// timeout; an unknown transaction is UNKNOWN_TRANSACTION only at NONE. Two consecutive mainnet blocks:
// transactions of the first whose receipts ran in the second.
import { ingestBlock } from '@nearlite/follower';
import { jsonEqual } from '@nearlite/stream';
import t from 'tap';
import { TX_TIMEOUT } from '../../../test/helpers/rpc_errors.js';
import { loadFixture } from '../../../test/helpers/stream_fixtures.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { openFollower, rpc } from './helpers.js';

const a = loadFixture('mainnet-107503704').message;
const b = loadFixture('mainnet-107503705').message;
const ranInB = new Map(
  b.shards.flatMap((s) => s.receipt_execution_outcomes.map((r) => [r.receipt.receipt_id, r] as const)),
);
// One receipt, run in the second block, which made at most its refund: INCLUDED_FINAL while only the
// first block is followed, EXECUTED or FINAL once the second is.
const tx = a.shards
  .flatMap((s) => s.chunk?.transactions ?? [])
  .find((x) => {
    const ids = x.outcome.execution_outcome.outcome.receipt_ids;
    const ran = ids.length === 1 ? ranInB.get(ids[0]!) : undefined;
    return ran !== undefined && ran.execution_outcome.outcome.receipt_ids.length <= 1;
  })!.transaction;
const firstReceipt = a.shards
  .flatMap((s) => s.chunk?.transactions ?? [])
  .find((x) => x.transaction.hash === tx.hash)!.outcome.execution_outcome.outcome.receipt_ids[0]!;
const txOfB = b.shards.flatMap((s) => s.chunk?.transactions ?? [])[0]!.transaction;
const query = (t: { hash: string; signer_id: string }, waitUntil?: string) => ({
  tx_hash: t.hash,
  sender_account_id: t.signer_id,
  ...(waitUntil === undefined ? {} : { wait_until: waitUntil }),
});

t.test('a wait ends with the block that takes the transaction to its wait_until', async (t) => {
  const { store, history, backend } = await openFollower(tempDir(t));
  t.teardown(() => store.close());
  await ingestBlock(history, a);
  const now = await rpc(backend, 'tx', query(tx, 'NONE'));
  t.equal(now.result.final_execution_status, 'INCLUDED_FINAL', 'its receipt has not run in what is followed');
  const executed = rpc(backend, 'EXPERIMENTAL_tx_status', query(tx, 'EXECUTED'));
  const byDefault = rpc(backend, 'tx', [tx.hash, tx.signer_id]);
  const unknownYet = rpc(backend, 'tx', query(txOfB, 'INCLUDED'));
  await ingestBlock(history, b);

  const got = await executed;
  t.match(got.result.final_execution_status, /^(EXECUTED|FINAL)$/);
  t.ok(
    jsonEqual(got.result.receipts_outcome[0], ranInB.get(firstReceipt)!.execution_outcome),
    'the answer holds the receipt that ran in the next block',
  );
  t.ok(Array.isArray(got.result.receipts), 'EXPERIMENTAL_tx_status with its receipts');
  t.same(
    Object.keys(got.result),
    [
      'status',
      'transaction',
      'transaction_outcome',
      'receipts_outcome',
      'receipts',
      'final_execution_status',
    ],
    "fields in nearcore's order: the flattened outcome view, then final_execution_status",
  );
  const legacy = await byDefault;
  t.equal(legacy.status, 200);
  t.match(
    legacy.result.final_execution_status,
    /^(EXECUTED|FINAL)$/,
    '[hash, signer] waits for EXECUTED_OPTIMISTIC, which INCLUDED_FINAL does not imply',
  );
  t.equal(
    (await unknownYet).result?.transaction.hash,
    txOfB.hash,
    'unknown when asked, answered once followed',
  );
});

t.test(
  'a wait that runs out is TIMEOUT_ERROR, HTTP 408; an unknown one at NONE, UNKNOWN_TRANSACTION',
  async (t) => {
    const { store, history, backend } = await openFollower(tempDir(t), { pollingTimeoutMs: 200 });
    t.teardown(() => store.close());
    await ingestBlock(history, a);
    for (const [what, method, params] of [
      ['an unknown transaction, by default', 'tx', [txOfB.hash, txOfB.signer_id]],
      ['an unknown transaction at INCLUDED', 'EXPERIMENTAL_tx_status', query(txOfB, 'INCLUDED')],
      ['INCLUDED_FINAL waited on for EXECUTED_OPTIMISTIC', 'tx', query(tx, 'EXECUTED_OPTIMISTIC')],
      ['INCLUDED_FINAL waited on for FINAL', 'tx', query(tx, 'FINAL')],
    ] as const) {
      const r = await rpc(backend, method, params);
      t.equal(r.status, 408, what);
      t.same(r.error, TX_TIMEOUT, what);
    }
    const included = await rpc(backend, 'tx', query(tx, 'INCLUDED_FINAL'));
    t.equal(included.result.final_execution_status, 'INCLUDED_FINAL', 'a level it has: answered at once');
    const unknown = await rpc(backend, 'tx', query(txOfB, 'NONE'));
    t.same(unknown.error.cause, {
      name: 'UNKNOWN_TRANSACTION',
      info: { requested_transaction_hash: txOfB.hash },
    });
  },
);
