// NEP-519 end to end: our own contract (test/contracts/oracle.ts, compiled at test time) yields in
// one transaction and is resumed by a second, whose payload becomes the first transaction's result;
// an unanswered request times out after yield_timeout_length_in_blocks (200 at protocol 86, from
// nearcore's parameters) and the callback sees the failure. Real node, near-api-js client.
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Account, KeyPair, KeyPairSigner } from 'near-api-js';
import t from 'tap';
import { compileContract } from './helpers/asc.js';
import { type LocalChain, localChain } from './helpers/chain.js';
import { initHome, type RunningNode, startNode, waitForHeight } from './helpers/node.js';
import { startPostgres, storeFlags } from './helpers/postgres.js';

const NEAR = 10n ** 24n;
const TGAS = 10n ** 12n;
const ORACLE = 'oracle.test.near';
/** nearcore's yield_timeout_length_in_blocks at protocol 86. */
const YIELD_TIMEOUT_LENGTH_IN_BLOCKS = 200;

const b64 = (s: string) => Buffer.from(s).toString('base64');

async function deployOracle(c: LocalChain): Promise<void> {
  const kp = KeyPair.fromRandom('ed25519');
  await c.root.createAccount({
    newAccountId: ORACLE,
    publicKey: kp.getPublicKey(),
    nearToTransfer: 20n * NEAR,
  });
  await new Account(ORACLE, c.provider, new KeyPairSigner(kp)).deployContract(
    await compileContract('oracle'),
  );
}

/** Sends `request` and returns its hash once the transaction is in a final block. */
async function request(c: LocalChain): Promise<string> {
  const res = await c.root.callFunctionRaw({
    contractId: ORACLE,
    methodName: 'request',
    args: {},
    gas: 100n * TGAS,
    waitUntil: 'INCLUDED_FINAL',
  });
  return res.transaction_outcome.id;
}

async function waitPending(test: typeof t, c: LocalChain): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await c.provider.callFunction({ contractId: ORACLE, method: 'pending', args: {} })) === true) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  test.fail('the request never yielded');
}

async function heightOf(c: LocalChain, blockHash: string): Promise<number> {
  return (await c.provider.viewBlock({ blockId: blockHash })).header.height;
}

t.test('a yielded request is answered by a second transaction and returns its payload', async (t) => {
  const c = await localChain(t);
  await deployOracle(c);
  const hash = await request(c);
  await waitPending(t, c);
  // The client waits on the request the way a chain-signature client does.
  const final = c.provider.viewTransactionStatus({
    txHash: hash,
    accountId: 'test.near',
    waitUntil: 'FINAL',
  });
  const answered = await c.root.callFunctionRaw({
    contractId: ORACLE,
    methodName: 'answer',
    args: new TextEncoder().encode('"the signature"'),
    gas: 100n * TGAS,
    waitUntil: 'FINAL',
  });
  t.same(answered.status, { SuccessValue: b64('true') }, 'promise_yield_resume answered true');

  const done = await final;
  t.same(done.status, { SuccessValue: b64('"the signature"') }, 'the request ends with the payload');
  const requestOutcome = done.receipts_outcome[0]!;
  const yieldReceiptId = requestOutcome.outcome.receipt_ids[0]!;
  t.same(
    requestOutcome.outcome.status,
    { SuccessReceiptId: yieldReceiptId },
    'request returned the yielded promise',
  );
  const callback = done.receipts_outcome.find((o) => o.id === yieldReceiptId);
  t.ok(callback, 'the callback ran under the yield receipt’s id');
  t.same(callback!.outcome.status, { SuccessValue: b64('"the signature"') });
  // nearcore's receipt view marks the parked receipt as a PromiseYield.
  const view = await c.node.rpc<{
    receipt: { Action: { is_promise_yield: boolean; input_data_ids: string[] } };
  }>('EXPERIMENTAL_receipt', { receipt_id: yieldReceiptId });
  t.equal(view.body.result?.receipt.Action.is_promise_yield, true);
  t.equal(view.body.result?.receipt.Action.input_data_ids.length, 1);

  // The block stream lists the parked yield among the instant receipts of the chunk that made it, as
  // nearcore's indexer does (IndexerChunkView::instant_receipts), though it has no outcome there.
  const yieldedAt = await heightOf(c, requestOutcome.block_hash);
  const message = (await (await fetch(`${c.node.url}/v0/block/${yieldedAt}`)).json()) as {
    shards: {
      chunk: { instant_receipts: object[] } | null;
      receipt_execution_outcomes: { receipt: object }[];
    }[];
  };
  const instant = message.shards.flatMap((s) => s.chunk?.instant_receipts ?? []);
  t.same(instant, [view.body.result], 'the yield receipt, as EXPERIMENTAL_receipt shows it');
  t.ok(
    message.shards.every((s) => s.chunk === null || Array.isArray(s.chunk.instant_receipts)),
    'every chunk has the list, empty or not',
  );
  t.notOk(
    message.shards.some((s) =>
      s.receipt_execution_outcomes.some((o) => isDeepStrictEqual(o.receipt, view.body.result)),
    ),
    'and no outcome of its own in that block',
  );

  // The yield is consumed: answering again finds nothing to resume.
  const again = await c.root.callFunctionRaw({
    contractId: ORACLE,
    methodName: 'answer',
    args: new TextEncoder().encode('"late"'),
    gas: 100n * TGAS,
  });
  t.same(again.status, { SuccessValue: b64('false') });
});

t.test('an unanswered request times out after yield_timeout_length_in_blocks blocks', async (t) => {
  const c = await localChain(t, { sandbox: true });
  await deployOracle(c);
  const hash = await request(c);
  await waitPending(t, c);
  const final = c.provider.viewTransactionStatus({
    txHash: hash,
    accountId: 'test.near',
    waitUntil: 'FINAL',
  });
  const ff = await c.node.rpc('sandbox_fast_forward', { delta_height: YIELD_TIMEOUT_LENGTH_IN_BLOCKS + 5 });
  t.same(ff.body.result, {});
  const done = await final;
  t.same(done.status, { SuccessValue: b64('"timed out"') }, 'the callback saw PromiseResult::Failed');
  const requestOutcome = done.receipts_outcome[0]!;
  const yieldReceiptId = requestOutcome.outcome.receipt_ids[0]!;
  const callback = done.receipts_outcome.find((o) => o.id === yieldReceiptId)!;
  const yieldedAt = await heightOf(c, requestOutcome.block_hash);
  // Timed out in the first chunk at or above yieldedAt + 200 (the fast-forward skips heights, as
  // nearcore's does), the resume applied in the block after it.
  const ran = (await c.provider.viewBlock({ blockId: callback.block_hash })).header;
  const timedOut = (await c.provider.viewBlock({ blockId: ran.prev_hash })).header;
  const beforeTimeout = (await c.provider.viewBlock({ blockId: timedOut.prev_hash })).header;
  t.ok(timedOut.height >= yieldedAt + YIELD_TIMEOUT_LENGTH_IN_BLOCKS, `timed out at #${timedOut.height}`);
  t.ok(beforeTimeout.height < yieldedAt + YIELD_TIMEOUT_LENGTH_IN_BLOCKS, 'in the first chunk that could');

  const late = await c.root.callFunctionRaw({
    contractId: ORACLE,
    methodName: 'answer',
    args: new TextEncoder().encode('"too late"'),
    gas: 100n * TGAS,
  });
  t.same(late.status, { SuccessValue: b64('false') }, 'a resume after the timeout answers false');
});

t.test(
  "followers on LevelDB and PostgreSQL answer a parked yield's receipt as the producer does",
  async (t) => {
    // The server first; the followers stop before it.
    const server = await startPostgres();
    const followers: RunningNode[] = [];
    t.teardown(async () => {
      for (const f of followers) await f.stop();
      await server.stop();
    });
    const store = await storeFlags(server);
    const c = await localChain(t, { blockTimeMs: 150 });
    await deployOracle(c);
    for (const [name, extra] of [
      ['leveldb', []],
      ['pg', store],
    ] as const) {
      const home = join(c.home, name);
      initHome(home, ['--genesis', join(c.home, 'genesis.json')]);
      followers.push(await startNode(home, ['--follow', c.node.url, ...extra]));
    }
    const hash = await request(c);
    await waitPending(t, c);
    const status = await c.provider.viewTransactionStatus({
      txHash: hash,
      accountId: 'test.near',
      waitUntil: 'NONE',
    });
    const requestOutcome = status.receipts_outcome[0]!;
    const yieldReceiptId = requestOutcome.outcome.receipt_ids[0]!;
    // The followers follow final blocks: they have the yield once its block is final.
    const yieldedAt = await heightOf(c, requestOutcome.block_hash);
    const asked = { receipt_id: yieldReceiptId };
    const onProducer = await c.node.rpc('EXPERIMENTAL_receipt', asked);
    t.ok(onProducer.body.result, 'the producer answers the parked yield');
    for (const [i, follower] of followers.entries()) {
      await waitForHeight(follower, yieldedAt, 60_000);
      const onFollower = await follower.rpc('EXPERIMENTAL_receipt', asked);
      t.same(onFollower.body, onProducer.body, `${['LevelDB', 'PostgreSQL'][i]}: before any outcome of it`);
    }
    t.equal(
      (await c.provider.callFunction({ contractId: ORACLE, method: 'pending', args: {} })) as boolean,
      true,
      'still parked when asked',
    );
  },
);
