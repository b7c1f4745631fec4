// Every real block of the fixtures is ingested and served; the answers are derived from the data.

import { gcFollowerStep, type HistoryStore, ingestBlock } from '@nearlite/follower';
import { base58Encode, encodeAccount, fromHex, stringifyJson, toBase64, utf8 } from '@nearlite/primitives';
import { asciiKey, DBCol, StoreUpdate, u64be } from '@nearlite/store';
import { BlockVerificationError, jsonEqual, type StreamerMessage, VerifyCheck } from '@nearlite/stream';
import { trieKeyAccount, trieKeyContractData } from '@nearlite/trie';
import t from 'tap';
import { CHANGES_TYPE } from '../../../test/helpers/mainnet.js';
import { fixtureNames, freshMessage, loadFixture } from '../../../test/helpers/stream_fixtures.js';
import { syntheticChain } from '../../../test/helpers/synthetic_chain.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { openFollower, resultText, rpc } from './helpers.js';

// near-api-js' signed_transaction1 test vector (test.near → whatever.near, Transfer 1 yocto).
const SIGNED_TX_HEX =
  '09000000746573742e6e65617200917b3d268d4b58f7fec1b150bd68d69be3ee5d4cc39855e341538465bb77860d01000000000000000d00000077686174657665722e6e6561720fa473fd26901df296be6adc4cc4df34d040efa2435224b6986910e630c2fef601000000030100000000000000000000000000000000969a83332186ee9755e4839325525806e189a3d2d2bb4b4760e94443e97e1c4f22deeef0059a8e9713100eda6e19144da7e8a0ef7e539b20708ba1d8d021bd01';

function changesParams(height: number, c: { type: string; change: Record<string, unknown> }): object {
  const type = CHANGES_TYPE[c.type]!;
  const base = { block_id: height, changes_type: type };
  const account = c.change.account_id;
  if (type === 'single_access_key_changes')
    return { ...base, keys: [{ account_id: account, public_key: c.change.public_key }] };
  if (type === 'data_changes')
    return { ...base, account_ids: [account], key_prefix_base64: c.change.key_base64 };
  return { ...base, account_ids: [account] };
}

/** At most `n` items, spread over the list: the big blocks have thousands of changes. */
function sample<T>(list: readonly T[], n = 30): T[] {
  if (list.length <= n) return [...list];
  const step = list.length / n;
  return Array.from({ length: n }, (_, i) => list[Math.floor(i * step)]!);
}

/** nearcore's trie column of each touched kind: StateChanges rows iterate in trie-key order. */
const TOUCHED_COLUMN: Record<string, number> = { account: 0, contract_code: 1, access_key: 2, data: 9 };

/**
 * What nearcore's StateChangesKinds::from_changes lists for a block: every changed account, code,
 * access key or data key once (the stream repeats a key per cause), ordered by column, then by
 * account id (which sorts its keys bytewise: a separator sorts below every account-id character).
 */
function touchedKinds(changes: readonly { type: string; change: Record<string, unknown> }[]): object[] {
  const keys = new Map<string, { column: number; account: string; kind: string }>();
  for (const c of changes) {
    const kind = c.type.replace(/_(update|deletion)$/, '');
    const column = TOUCHED_COLUMN[kind];
    if (column === undefined) continue;
    const account = String(c.change.account_id);
    const id = [kind, account, c.change.public_key ?? c.change.key_base64 ?? ''].join(' ');
    keys.set(id, { column, account, kind });
  }
  return [...keys.values()]
    .sort((a, b) => a.column - b.column || (a.account < b.account ? -1 : a.account > b.account ? 1 : 0))
    .map((k) => ({ type: `${k.kind}_touched`, account_id: k.account }));
}

async function servesBlock(
  t: Tap.Test,
  backend: Parameters<typeof rpc>[0],
  m: StreamerMessage,
  isHead = true,
): Promise<void> {
  const h = m.block.header;
  const byHeight = await rpc(backend, 'block', { block_id: h.height });
  t.equal(resultText(byHeight.body), stringifyJson(m.block), 'block by height: the view as published');
  t.match(resultText(byHeight.body), `"timestamp":${h.timestamp_nanosec},`, 'exact u64 timestamp');
  const byHash = await rpc(backend, 'block', { block_id: h.hash });
  t.equal(byHash.body, byHeight.body, 'block by hash');
  if (isHead) {
    const final = await rpc(backend, 'block', { finality: 'final' });
    t.equal(final.result.header.hash, h.hash, 'final is the cursor');
  }

  for (const shard of m.shards) {
    const chunk = shard.chunk;
    if (!chunk) continue;
    const byId = await rpc(backend, 'chunk', { chunk_id: chunk.header.chunk_hash });
    t.equal(byId.result.header.chunk_hash, chunk.header.chunk_hash);
    t.ok(jsonEqual(byId.result.header, chunk.header), `chunk ${shard.shard_id} header`);
    t.same(
      byId.result.transactions.map((x: { hash: string }) => x.hash),
      chunk.transactions.map((x) => x.transaction.hash),
      `chunk ${shard.shard_id} transactions`,
    );
    // nearcore's `chunk` lists what the shard's previous chunk sent; the indexer put the local
    // receipts of the chunk's own transactions (signer = receiver) first in the same list.
    const local = chunk.transactions
      .filter((x) => x.transaction.signer_id === x.transaction.receiver_id)
      .map((x) => x.outcome.execution_outcome.outcome.receipt_ids[0]);
    t.same(
      byId.result.receipts.map((x: { receipt_id: string }) => x.receipt_id),
      chunk.receipts.map((x) => x.receipt_id).filter((id) => !local.includes(id)),
      `chunk ${shard.shard_id} receipts`,
    );
    for (const id of local) {
      const receipt = await rpc(backend, 'EXPERIMENTAL_receipt', { receipt_id: id });
      t.equal(receipt.result?.receipt_id, id, `local receipt ${id} is found`);
    }
    const byShard = await rpc(backend, 'chunk', { block_id: h.height, shard_id: chunk.header.shard_id });
    t.equal(byShard.body, byId.body, `chunk ${shard.shard_id} by block and shard`);
    for (const tx of sample(chunk.transactions, 10)) {
      const st = await rpc(backend, 'EXPERIMENTAL_tx_status', {
        tx_hash: tx.transaction.hash,
        sender_account_id: tx.transaction.signer_id,
        wait_until: 'NONE',
      });
      t.ok(jsonEqual(st.result.transaction, tx.transaction), `tx ${tx.transaction.hash}`);
      t.ok(jsonEqual(st.result.transaction_outcome, tx.outcome.execution_outcome), 'tx outcome as published');
      t.ok(Array.isArray(st.result.receipts), 'EXPERIMENTAL_tx_status has receipts');
      const plain = await rpc(backend, 'tx', {
        tx_hash: tx.transaction.hash,
        sender_account_id: tx.transaction.signer_id,
        wait_until: 'NONE',
      });
      t.notOk('receipts' in plain.result, 'tx has no receipts');
    }
  }
  for (const shard of m.shards) {
    for (const r of sample(shard.receipt_execution_outcomes, 10)) {
      const got = await rpc(backend, 'EXPERIMENTAL_receipt', { receipt_id: r.receipt.receipt_id });
      t.ok(jsonEqual(got.result, r.receipt), `receipt ${r.receipt.receipt_id}`);
    }
  }

  const changes = m.shards.flatMap((s) => s.state_changes);
  for (const c of sample(changes, 40)) {
    const got = await rpc(backend, 'EXPERIMENTAL_changes', changesParams(h.height, c));
    t.ok(
      got.result.changes.some((x: unknown) =>
        jsonEqual(x, { cause: c.cause, type: c.type, change: c.change }),
      ),
      `${c.type} of ${c.change.account_id} is served`,
    );
  }
  const effects = await rpc(backend, 'block_effects', { block_id: h.height });
  t.same(effects.result.changes, touchedKinds(changes), 'block_effects: one entry per changed trie key');

  // The last account_update of an account in this block is its state as of the block.
  const finalAccounts = new Map<string, Record<string, unknown>>();
  const deleted = new Set<string>();
  for (const c of changes) {
    const id = String(c.change.account_id);
    if (c.type === 'account_update') {
      finalAccounts.set(id, c.change);
      deleted.delete(id);
    }
    if (c.type === 'account_deletion') {
      finalAccounts.delete(id);
      deleted.add(id);
    }
  }
  for (const [id, a] of sample([...finalAccounts], 30)) {
    const got = await rpc(backend, 'query', {
      request_type: 'view_account',
      account_id: id,
      block_id: h.height,
    });
    t.equal(got.result.amount, a.amount, `${id} amount`);
    t.equal(got.result.locked, a.locked, `${id} locked`);
    t.equal(got.result.code_hash, a.code_hash, `${id} code_hash`);
    t.equal(got.result.storage_usage, a.storage_usage, `${id} storage_usage`);
    t.equal(got.result.block_hash, h.hash);
  }
  for (const id of deleted) {
    const got = await rpc(backend, 'query', {
      request_type: 'view_account',
      account_id: id,
      block_id: h.height,
    });
    t.equal(got.error.cause.name, 'UNKNOWN_ACCOUNT', `${id} was deleted`);
  }
  const keys = new Map<string, Record<string, unknown>>();
  for (const c of changes) {
    const id = `${c.change.account_id} ${c.change.public_key}`;
    if (c.type === 'access_key_update') keys.set(id, c.change);
    if (c.type === 'access_key_deletion') keys.delete(id);
  }
  for (const k of sample([...keys.values()], 20)) {
    const got = await rpc(backend, 'query', {
      request_type: 'view_access_key',
      account_id: k.account_id,
      public_key: k.public_key,
      block_id: h.height,
    });
    const ak = k.access_key as { nonce: number; permission: unknown };
    t.equal(got.result.nonce, ak.nonce, 'access key nonce');
    t.same(got.result.permission, ak.permission, 'access key permission');
  }
}

t.test('every real block is ingested and served from the history store', async (t) => {
  for (const name of fixtureNames({ verifiable: true, whole: true })) {
    await t.test(name, async (t) => {
      const { store, history, backend } = await openFollower(tempDir(t));
      const { message } = loadFixture(name);
      await ingestBlock(history, message);
      t.equal(history.cursor()?.height, message.block.header.height, 'cursor');
      await servesBlock(t, backend, message);
      await store.close();
    });
  }
});

t.test(
  'a chunk shows what the previous chunk sent, not the local receipt the indexer put first',
  async (t) => {
    const { history, backend } = await openFollower(tempDir(t));
    await ingestBlock(history, loadFixture('mainnet-93085141').message);
    const chunk = await rpc(backend, 'chunk', { block_id: 93085141, shard_id: 0 });
    // app.nearcrowd.near's transaction HwDUCUs3… to itself made DwVQmRqa…, run in this chunk.
    t.same(
      chunk.result.receipts.map((x: { receipt_id: string }) => x.receipt_id),
      [
        'zGuoGbPEvvumUASBeui7VVneDh4Ft2TGaxUPj3mR2eG',
        'Fp8WoevW4UaFfeXV6341E5gcnkvREwjKByUDgvo4PdQy',
        '616WtYRqUTBG1axECm9d2doCxdmiNqGBpGDSWGh7w6ec',
      ],
    );
    const local = await rpc(backend, 'EXPERIMENTAL_receipt', {
      receipt_id: 'DwVQmRqaeHiMwRESakJhp2jdYbq5ATLwa5BdKQtaek8n',
    });
    t.equal(local.result?.predecessor_id, 'app.nearcrowd.near', 'the local receipt is still found');
  },
);

t.test('consecutive blocks: links checked, transactions followed across blocks', async (t) => {
  const { store, history, backend } = await openFollower(tempDir(t));
  const a = loadFixture('mainnet-107503704').message;
  const b = loadFixture('mainnet-107503705').message;
  await ingestBlock(history, a);
  // A block that does not extend the cursor is refused and changes nothing.
  const stray = loadFixture('mainnet-93085141').message;
  await t.rejects(ingestBlock(history, stray), { check: VerifyCheck.PrevHash, height: 93085141 });
  t.equal(history.cursor()?.height, 107503704);
  const missing = await rpc(backend, 'block', { block_id: 93085141 });
  t.equal(missing.error.cause.name, 'UNKNOWN_BLOCK');
  await ingestBlock(history, b);
  t.equal(history.cursor()?.height, 107503705);
  await servesBlock(t, backend, a, false);

  // Receipts produced by 107503704's transactions ran in 107503705: tx status now reaches them.
  const executedInB = new Map(
    b.shards.flatMap((s) => s.receipt_execution_outcomes.map((r) => [r.receipt.receipt_id, r] as const)),
  );
  let followed = 0;
  let twoHops = 0;
  for (const tx of a.shards.flatMap((s) => s.chunk?.transactions ?? [])) {
    const first = tx.outcome.execution_outcome.outcome.receipt_ids[0];
    if (!first || !executedInB.has(first)) continue;
    const st = await rpc(backend, 'EXPERIMENTAL_tx_status', {
      tx_hash: tx.transaction.hash,
      sender_account_id: tx.transaction.signer_id,
      wait_until: 'NONE',
    });
    const ids = st.result.receipts_outcome.map((o: { id: string }) => o.id);
    t.equal(ids[0], first, `${tx.transaction.hash}: its receipt's outcome from the next block`);
    t.ok(jsonEqual(st.result.receipts_outcome[0], executedInB.get(first)!.execution_outcome));
    // Back from the receipt, and from what its outcome created in turn, to the transaction.
    const origin = { transaction_hash: tx.transaction.hash, sender_account_id: tx.transaction.signer_id };
    const toTx = await rpc(backend, 'EXPERIMENTAL_receipt_to_tx', { receipt_id: first });
    t.same(toTx.result, origin, `${first}: back to its transaction`);
    for (const child of executedInB.get(first)!.execution_outcome.outcome.receipt_ids) {
      const grand = await rpc(backend, 'EXPERIMENTAL_receipt_to_tx', { receipt_id: child });
      t.same(grand.result, origin, `${child}: two hops back to the transaction`);
      twoHops++;
    }
    followed++;
  }
  t.ok(followed > 0, 'some transactions were followed into the next block');
  t.ok(twoHops > 0, 'some receipts were followed back two hops');
  // A receipt of 107503704 created by an outcome of an earlier block, which this history does not hold.
  const older = a.shards
    .flatMap((s) => s.receipt_execution_outcomes.map((r) => r.receipt.receipt_id))
    .find(
      (id) =>
        !a.shards.some((s) =>
          s.chunk?.transactions.some((x) => x.outcome.execution_outcome.outcome.receipt_ids.includes(id)),
        ),
    );
  t.ok(older, 'a receipt whose creator ran before the first followed block');
  const unknown = await rpc(backend, 'EXPERIMENTAL_receipt_to_tx', { receipt_id: older });
  t.same(unknown.error.cause, { name: 'UNKNOWN_RECEIPT', info: { receipt_id: older } });
  await store.close();
});

t.test('a skipped height: 70834061 follows 70834059 and 70834060 does not exist', async (t) => {
  const { store, history, backend } = await openFollower(tempDir(t));
  await ingestBlock(history, loadFixture('mainnet-70834059').message);
  await ingestBlock(history, loadFixture('mainnet-70834061').message);
  const gap = await rpc(backend, 'block', { block_id: 70834060 });
  t.equal(gap.error.cause.name, 'UNKNOWN_BLOCK');
  const block = await rpc(backend, 'block', { block_id: 70834061 });
  t.equal(block.result.header.prev_hash, loadFixture('mainnet-70834059').message.block.header.hash);
  const chunk = await rpc(backend, 'chunk', { block_id: 70834061, shard_id: 0 });
  t.ok(chunk.error, 'no chunk of shard 0 was published with 70834061');
  await store.close();
});

t.test('GC leaves the tail on a block, past a skipped height', async (t) => {
  const { store, history, backend } = await openFollower(tempDir(t), { gcGraceMs: 0 });
  await ingestBlock(history, loadFixture('mainnet-70834059').message);
  await ingestBlock(history, loadFixture('mainnet-70834061').message);
  // One height a step would leave the tail on 70834060, which has no block.
  t.equal(await gcFollowerStep(history, { keepBlocks: 0, heightsPerStep: 1 }), 1, 'one block collected');
  t.equal(history.firstHeight(), 70834061, 'the tail names the next block');
  const status = await rpc(backend, 'status', []);
  t.equal(status.result.sync_info.earliest_block_height, 70834061);
  t.equal(
    status.result.sync_info.earliest_block_hash,
    loadFixture('mainnet-70834061').message.block.header.hash,
  );
  const earliest = await rpc(backend, 'block', { sync_checkpoint: 'earliest_available' });
  t.equal(earliest.result?.header.height, 70834061, 'earliest_available is that block');
  await store.close();
});

t.test('errors in nearcore shape', async (t) => {
  const { store, history, backend } = await openFollower(tempDir(t));
  const m = loadFixture('mainnet-93085141').message;
  await ingestBlock(history, m);
  const tx = await rpc(backend, 'tx', {
    tx_hash: '9EGASj6bhqjHhCGaRG6u2BkywEBrLzTZSaoh6ECPH2Jo',
    sender_account_id: 'a.near',
    wait_until: 'NONE',
  });
  t.equal(tx.error.cause.name, 'UNKNOWN_TRANSACTION');
  t.same(tx.error.cause.info, { requested_transaction_hash: '9EGASj6bhqjHhCGaRG6u2BkywEBrLzTZSaoh6ECPH2Jo' });
  const receipt = await rpc(backend, 'EXPERIMENTAL_receipt', {
    receipt_id: '9EGASj6bhqjHhCGaRG6u2BkywEBrLzTZSaoh6ECPH2Jo',
  });
  t.equal(receipt.error.cause.name, 'UNKNOWN_RECEIPT');
  const above = await rpc(backend, 'block', { block_id: 93085142 });
  t.equal(above.error.cause.name, 'UNKNOWN_BLOCK');
  const below = await rpc(backend, 'query', {
    request_type: 'view_account',
    account_id: 'near',
    block_id: 93085000,
  });
  t.equal(below.error.cause.name, 'GARBAGE_COLLECTED_BLOCK', 'below the first followed block');
  // One block of mainnet, without the chain before it: an account it did not touch cannot be told.
  const account = await rpc(backend, 'query', {
    request_type: 'view_account',
    account_id: 'nobody-here.near',
    finality: 'final',
  });
  t.equal(account.error.cause.name, 'INTERNAL_ERROR');
  t.match(account.error.cause.info.error_message, /^the state at block #93085141 is not held here/);
  const proof = await rpc(backend, 'query', {
    request_type: 'view_state',
    account_id: 'near',
    prefix_base64: '',
    include_proof: true,
    finality: 'final',
  });
  t.match(proof.error.cause.info.error_message, /cannot prove state/);
  for (const params of [
    { request_type: 'view_global_contract_code', code_hash: m.block.header.hash },
    { request_type: 'view_global_contract_code_by_account_id', account_id: 'near' },
  ]) {
    const global = await rpc(backend, 'query', { ...params, finality: 'final' });
    t.match(
      global.error.cause.info.error_message,
      /does not carry global contract code/,
      params.request_type,
    );
  }
  const send = await rpc(backend, 'broadcast_tx_async', [toBase64(fromHex(SIGNED_TX_HEX))]);
  // RpcTransactionError's InternalError carries `debug_info`, which nearcore's INTERNAL_ERROR cause
  // does not read: the text is in `data` only.
  t.equal(send.error.cause.info.error_message, 'InternalError happened during serializing InternalError');
  t.match(send.error.data, /^The node reached its limits\. Try again later\. More details: .*--upstream-rpc/);
  const lc = await rpc(backend, 'next_light_client_block', { last_block_hash: m.block.header.hash });
  t.ok(lc.error, 'light-client methods answer an error');
  await store.close();
});

t.test('tampered copies are refused and nothing of them is stored', async (t) => {
  const edits: [string, (m: StreamerMessage) => void][] = [
    [
      'changed hash',
      (m) => {
        m.block.header.hash = '3UGi8N6uikSd9ZgoUyz8FjhZhxErjhiqQ24AGDfq4DSf';
      },
    ],
    [
      'edited outcome',
      (m) => {
        const o = m.shards[3]!.receipt_execution_outcomes[0]!.execution_outcome;
        o.block_hash = '3UGi8N6uikSd9ZgoUyz8FjhZhxErjhiqQ24AGDfq4DSf';
      },
    ],
    [
      'chunk header disagrees',
      (m) => {
        m.shards[2]!.chunk!.header.balance_burnt = '1';
      },
    ],
  ];
  for (const [what, edit] of edits) {
    const { store, history } = await openFollower(tempDir(t));
    const m = freshMessage('mainnet-93085141');
    edit(m);
    await t.rejects(ingestBlock(history, m), BlockVerificationError, what);
    for (const col of [DBCol.StreamBlock, DBCol.StreamOutcome, DBCol.StateHistory, DBCol.FollowerMisc]) {
      let rows = 0;
      for await (const _ of store.iter(col)) rows++;
      t.equal(rows, 0, `${what}: nothing in column ${col.id}`);
    }
    await store.close();
  }
  const { store, history } = await openFollower(tempDir(t));
  await ingestBlock(history, loadFixture('mainnet-107503704').message);
  const broken = freshMessage('mainnet-107503705');
  broken.block.header.prev_hash = base58Encode(new Uint8Array(32).fill(7));
  await t.rejects(ingestBlock(history, broken), { check: VerifyCheck.BlockHash });
  t.equal(history.cursor()?.height, 107503704, 'the cursor did not move');
  await store.close();
});

t.test('GC collects a block with every row it wrote, and moves the tail', async (t) => {
  const { store, history, backend } = await openFollower(tempDir(t), { gcGraceMs: 0 });
  const a = loadFixture('mainnet-107503704').message;
  const b = loadFixture('mainnet-107503705').message;
  await ingestBlock(history, a);
  await ingestBlock(history, b);
  const rowsOf = async () => {
    const out: Record<string, number> = {};
    for (const [name, col] of Object.entries(DBCol)) {
      if (!name.startsWith('Stream')) continue;
      let n = 0;
      for await (const _ of store.iter(col)) n++;
      out[name] = n;
    }
    return out;
  };
  const before = await rowsOf();
  t.equal(await gcFollowerStep(history, { keepBlocks: 0 }), 1, 'one block collected');
  t.equal(history.firstHeight(), 107503705);
  const after = await rowsOf();
  // nearcore's GC keeps every header and the height index (clear_block_data leaves BlockHeader and
  // BlockHeight): the collected block's row is its header alone.
  t.equal(after.StreamBlock, 2);
  t.equal(after.StreamBlockHeight, 2);
  t.equal(after.StreamStateChanges, 1);
  t.equal(after.StreamOutcomeIds, 1);
  t.ok(after.StreamOutcome! < before.StreamOutcome!, 'outcomes of the collected block are gone');
  for (const tx of a.shards.flatMap((s) => s.chunk?.transactions ?? [])) {
    const st = await rpc(backend, 'tx', {
      tx_hash: tx.transaction.hash,
      sender_account_id: tx.transaction.signer_id,
      wait_until: 'NONE',
    });
    t.equal(st.error?.cause.name, 'UNKNOWN_TRANSACTION', `${tx.transaction.hash} collected`);
  }
  for (const r of a.shards.flatMap((s) => s.receipt_execution_outcomes)) {
    const got = await rpc(backend, 'EXPERIMENTAL_receipt', { receipt_id: r.receipt.receipt_id });
    t.equal(got.error?.cause.name, 'UNKNOWN_RECEIPT', `${r.receipt.receipt_id} collected`);
  }
  const chunk = await rpc(backend, 'chunk', { chunk_id: a.shards[0]!.chunk!.header.chunk_hash });
  t.equal(chunk.error?.cause.name, 'UNKNOWN_CHUNK');
  const hashA = a.block.header.hash;
  const block = await rpc(backend, 'block', { block_id: 107503704 });
  t.equal(block.error?.cause.name, 'UNKNOWN_BLOCK');
  t.equal(block.error?.data, `DB Not Found Error: BLOCK: ${hashA} \n Cause: Unknown`, 'naming its hash');
  const byHash = await rpc(backend, 'block', { block_id: hashA });
  t.equal(byHash.error?.cause.name, 'UNKNOWN_BLOCK');
  const query = await rpc(backend, 'query', {
    request_type: 'view_account',
    account_id: 'near',
    block_id: 107503704,
  });
  t.equal(query.error?.cause.name, 'GARBAGE_COLLECTED_BLOCK');
  t.same(
    query.error?.cause.info,
    { block_height: 107503704, block_hash: hashA },
    'the height index names it',
  );
  // Found by hash, a collected block has no state: the shard is not tracked, since protocol 85.
  const queryByHash = await rpc(backend, 'query', {
    request_type: 'view_account',
    account_id: 'near',
    block_id: hashA,
  });
  t.equal(queryByHash.error?.cause.name, 'UNAVAILABLE_SHARD');
  t.same(queryByHash.error?.cause.info, { requested_shard_id: 0 });
  // What reads a header alone still answers.
  const price = await rpc(backend, 'gas_price', [107503704]);
  t.equal(price.result?.gas_price, a.block.header.gas_price, 'gas_price from the kept header');
  await servesBlock(t, backend, b);
  await store.close();
});

t.test('a collected genesis is no whole block: its checkpoint is UNKNOWN_BLOCK, and no state', async (t) => {
  const { store, history, backend } = await openFollower(tempDir(t), { gcGraceMs: 0 });
  const chain = syntheticChain(6);
  const genesis = chain[0]!.block.header.height;
  // A history whose first followed block is its genesis (a nearlite chain followed from the start).
  await store.commit(new StoreUpdate().put(DBCol.FollowerMisc, asciiKey('genesis'), u64be(genesis)));
  for (const m of chain) await ingestBlock(history, m);
  const checkpoint = { sync_checkpoint: 'genesis' };
  t.equal((await rpc(backend, 'block', checkpoint)).result?.header.height, genesis, 'whole before GC');
  while ((history.firstHeight() ?? 0) <= genesis) await gcFollowerStep(history, { keepBlocks: 2 });
  await gcFollowerStep(history, { keepBlocks: 2 });
  const block = await rpc(backend, 'block', checkpoint);
  t.equal(block.error?.cause.name, 'UNKNOWN_BLOCK', 'its header alone is no block');
  const query = await rpc(backend, 'query', {
    request_type: 'view_account',
    account_id: 'near',
    ...checkpoint,
  });
  t.equal(query.error?.cause.name, 'UNAVAILABLE_SHARD', 'nor state to read');
});

t.test('GC keeps a collected block readable for the grace after the tail moves past it', async (t) => {
  const dir = tempDir(t);
  const { store, history, backend } = await openFollower(dir, { gcGraceMs: 200 });
  const a = loadFixture('mainnet-107503704').message;
  const b = loadFixture('mainnet-107503705').message;
  await ingestBlock(history, a);
  await ingestBlock(history, b);
  const tx = a.shards.flatMap((s) => s.chunk?.transactions ?? [])[0]!.transaction;
  const outcomeRows = async () => {
    let n = 0;
    for await (const _ of store.iter(DBCol.StreamOutcome)) n++;
    return n;
  };
  const rowsBefore = await outcomeRows();
  t.equal(await gcFollowerStep(history, { keepBlocks: 0 }), 1, 'the tail moves past one block');
  t.equal(history.firstHeight(), 107503705);
  const query = await rpc(backend, 'query', {
    request_type: 'view_account',
    account_id: 'near',
    block_id: 107503704,
  });
  t.equal(
    query.error?.cause.name,
    'GARBAGE_COLLECTED_BLOCK',
    'a new query below the tail is refused at once',
  );
  const block = await rpc(backend, 'block', { block_id: a.block.header.hash });
  t.equal(block.error?.cause.name, 'UNKNOWN_BLOCK', 'by hash too');
  t.equal(await outcomeRows(), rowsBefore, 'the rows stay while a reader may be between two of them');
  const read = await rpc(backend, 'tx', {
    tx_hash: tx.hash,
    sender_account_id: tx.signer_id,
    wait_until: 'NONE',
  });
  t.equal(read.result?.transaction.hash, tx.hash, 'a transaction read meanwhile finds its block whole');

  await new Promise((r) => setTimeout(r, 250));
  t.equal(await gcFollowerStep(history, { keepBlocks: 0 }), 0, 'nothing more to move');
  t.ok((await outcomeRows()) < rowsBefore, 'past the grace, the rows are gone');
  const gone = await rpc(backend, 'tx', {
    tx_hash: tx.hash,
    sender_account_id: tx.signer_id,
    wait_until: 'NONE',
  });
  t.equal(gone.error?.cause.name, 'UNKNOWN_TRANSACTION');
  await store.close();
});

t.test('a restart deletes at once what a stop left between the tail and the deletions', async (t) => {
  const dir = tempDir(t);
  const first = await openFollower(dir, { gcGraceMs: 3_600_000 });
  const a = loadFixture('mainnet-107503704').message;
  const b = loadFixture('mainnet-107503705').message;
  await ingestBlock(first.history, a);
  await ingestBlock(first.history, b);
  t.equal(await gcFollowerStep(first.history, { keepBlocks: 0 }), 1);
  await first.store.close();
  const again = await openFollower(dir, { gcGraceMs: 3_600_000 });
  t.teardown(() => again.store.close());
  t.equal(await gcFollowerStep(again.history, { keepBlocks: 0 }), 0, 'the tail stays');
  const tx = a.shards.flatMap((s) => s.chunk?.transactions ?? [])[0]!.transaction;
  const gone = await rpc(again.backend, 'tx', {
    tx_hash: tx.hash,
    sender_account_id: tx.signer_id,
    wait_until: 'NONE',
  });
  t.equal(gone.error?.cause.name, 'UNKNOWN_TRANSACTION', 'no reader of this process read below the tail');
});

t.test('view_state over the size limit is refused before the state is read from history', async (t) => {
  let scans = 0;
  const { store, history, backend } = await openFollower(tempDir(t), {
    readThrough: (h) =>
      new Proxy(h, {
        get(target, prop) {
          if (prop === 'scanAt')
            return (...a: Parameters<HistoryStore['scanAt']>) => {
              scans++;
              return target.scanAt(...a);
            };
          const v = Reflect.get(target, prop, target);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      }),
  });
  const m = loadFixture('mainnet-93085141').message;
  // An account whose recorded storage is far past the 50,000-byte limit, with three data rows, in
  // the state of a genesis that is the block's parent (so the history holds the whole state).
  const id = 'big-state.near';
  const account = { amount: 10n ** 24n, locked: 0n, codeHash: new Uint8Array(32), storageUsage: 5_000_000n };
  await history.writeGenesis(m.block.header.prev_height!, [
    { key: trieKeyAccount(id), value: encodeAccount(account) },
    ...['a', 'b', 'c'].map((k) => ({ key: trieKeyContractData(id, utf8(k)), value: utf8(k) })),
  ]);
  await ingestBlock(history, m);
  const base = { request_type: 'view_state', account_id: id, prefix_base64: '', finality: 'final' };
  const whole = await rpc(backend, 'query', base);
  t.equal(whole.error.cause.name, 'TOO_LARGE_CONTRACT_STATE');
  t.equal(scans, 0, 'no scan of the state');
  const page = await rpc(backend, 'query', { ...base, limit: 2 });
  t.same(
    page.result.values.map((v: { key: string }) => v.key),
    [toBase64(utf8('a')), toBase64(utf8('b'))],
  );
  t.equal(page.result.last_key, toBase64(utf8('b')), 'a paged view is not held to the limit');
  t.equal(scans, 1);
  await store.close();
});
