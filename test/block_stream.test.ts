// The neardata routes of a running node and the StreamerMessage they serve, checked against the
// node's own RPC answers for the same block, chunk, transactions, receipts and state changes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { rawRpc } from './helpers/node.js';
import { streamActivity } from './helpers/stream_activity.js';

// biome-ignore lint/suspicious/noExplicitAny: walks untyped JSON answers
type Json = Record<string, any>;

/** The raw text of a JSON-RPC result, exactly as the node wrote it. */
async function rawResult(url: string, method: string, params: unknown): Promise<string> {
  const text = (await rawRpc(url, method, params)).body;
  const start = text.indexOf('"result":');
  if (start < 0) throw new Error(`${method} failed: ${text}`);
  return text.slice(start + 9, text.lastIndexOf(',"id":'));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Every object's keys, in order, by path (`.shards[].chunk`, …); the first object seen per path. */
function keyOrders(v: unknown, path = '', out = new Map<string, string[]>()): Map<string, string[]> {
  if (Array.isArray(v)) for (const x of v) keyOrders(x, `${path}[]`, out);
  else if (v !== null && typeof v === 'object') {
    if (!out.has(path)) out.set(path, Object.keys(v));
    for (const [k, x] of Object.entries(v)) keyOrders(x, `${path}.${k}`, out);
  }
  return out;
}

// FASTNEAR's own saved neardata answer (testnet 185758655, protocol 73; see SOURCES.md).
const REAL = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures', 'lake-real', 'testnet-185758655.streamer.json'), 'utf8'),
) as unknown;
// What nearlite writes on purpose beyond that block: `shard_split` is in nearlite's own `block`
// answer (the stored view, served unchanged), `local_receipts` is in newer indexer output
// (testnet-232952651 has it), `instant_receipts` in the newest (nearcore's IndexerChunkView since
// 2026), and `contracts` is protocol 85's ExecutionMetadataV4 (protocol 73 has V3).
const EXTRA: Record<string, string[]> = {
  '.block.header': ['shard_split'],
  '.shards[].chunk': ['local_receipts', 'instant_receipts'],
  '.shards[].receipt_execution_outcomes[].execution_outcome.outcome.metadata': ['contracts'],
};

t.test('neardata routes and messages of a producing node', async (t) => {
  const c = await localChain(t, { shards: 2, archive: true });
  const { node } = c;
  const txHashes = await streamActivity(c);
  const get = (path: string) => fetch(`${node.url}${path}`, { redirect: 'manual' });

  // Redirects to the latest final and optimistic blocks, and to the first kept block.
  const fin = await get('/v0/last_block/final');
  t.equal(fin.status, 302);
  const finalHeight = Number(/^\/v0\/block\/(\d+)$/.exec(fin.headers.get('location') ?? '')?.[1]);
  const finalRpc = JSON.parse(await rawResult(node.url, 'block', { finality: 'final' })) as Json;
  t.ok(finalHeight > 0 && finalHeight <= finalRpc.header.height, 'final redirect names the final head');
  const opt = await get('/v0/last_block/optimistic');
  t.equal(opt.status, 302);
  const optHeight = Number(/^\/v0\/block_opt\/(\d+)$/.exec(opt.headers.get('location') ?? '')?.[1]);
  t.ok(optHeight > finalHeight, 'the optimistic head is above the final one');
  const first = await get('/v0/first_block');
  t.equal(first.status, 302);
  t.equal(first.headers.get('location'), '/v0/block/0', 'an archival node keeps genesis');
  t.equal(first.headers.get('cache-control'), 'public, max-age=86400', 'for good: caches may keep it');

  // Errors as neardata answers them.
  const bad = await get('/v0/block/abc');
  t.equal(bad.status, 400);
  t.equal(await bad.text(), '"Invalid argument"');
  const high = await get('/v0/block/10000000000000000');
  t.equal(high.status, 404);
  t.same(await high.json(), { error: 'Block height is too high', type: 'BLOCK_HEIGHT_TOO_HIGH' });
  t.equal(high.headers.get('cache-control'), 'public, max-age=86400', 'cached a day, as neardata');
  const future = await get(`/v0/block/${optHeight + 1000}`);
  t.equal(future.status, 404);
  t.same(await future.json(), { error: 'The block is too far in the future', type: 'BLOCK_DOES_NOT_EXIST' });
  t.equal(future.headers.get('cache-control'), null, 'a block yet to come is not cached');

  // The optimistic head is served at once by block_opt; /v0/block waits until it is final.
  const headOpt = await get(`/v0/block_opt/${optHeight}`);
  t.equal(headOpt.status, 200);
  const headMsg = (await headOpt.json()) as Json;
  t.equal(headMsg.block.header.height, optHeight);
  const waited = await get(`/v0/block/${optHeight}`);
  t.equal(waited.status, 200, 'a final request for the head waits for finality');
  t.equal(((await waited.json()) as Json).block.header.hash, headMsg.block.header.hash);
  const finalNow = JSON.parse(await rawResult(node.url, 'block', { finality: 'final' })) as Json;
  t.ok(finalNow.header.height >= optHeight, 'answered once the block was final');

  // Every block's message against the RPC, and every transaction of the activity found in one.
  const ours = new Map<string, string[]>();
  const seenTx = new Set<string>();
  let receiptOutcomes = 0;
  let localReceipts = 0;
  let changes = 0;
  for (let h = 0; h <= finalNow.header.height; h++) {
    const res = await get(`/v0/block/${h}`);
    t.equal(res.status, 200);
    t.match(res.headers.get('content-type'), /^application\/json/);
    const text = await res.text();
    const blockText = text.slice('{"block":'.length, text.indexOf(',"shards":['));
    const rpcBlock = await rawResult(node.url, 'block', { block_id: h });
    if (blockText !== rpcBlock) t.fail(`block ${h}: bytes differ from the block RPC`);
    const msg = JSON.parse(text) as Json;
    keyOrders(msg, '', ours);
    t.equal(msg.shards.length, 2);
    for (const [i, shard] of (msg.shards as Json[]).entries()) {
      t.equal(shard.shard_id, i);
      if (h === 0) continue;
      const chunk = shard.chunk as Json;
      if (!same(chunk.header, msg.block.chunks[i])) t.fail(`block ${h} shard ${i}: chunk header`);
      const rpcChunk = JSON.parse(await rawResult(node.url, 'chunk', { block_id: h, shard_id: i })) as Json;
      if (!same(chunk.author, rpcChunk.author)) t.fail(`block ${h} shard ${i}: chunk author`);
      if (!same(chunk.receipts, rpcChunk.receipts)) t.fail(`block ${h} shard ${i}: chunk receipts`);
      if (
        !same(
          chunk.transactions.map((x: Json) => x.transaction),
          rpcChunk.transactions,
        )
      )
        t.fail(`block ${h} shard ${i}: chunk transactions`);
      for (const tx of chunk.transactions as Json[]) {
        seenTx.add(tx.transaction.hash);
        t.equal(tx.outcome.receipt, null);
        const status = JSON.parse(
          await rawResult(node.url, 'EXPERIMENTAL_tx_status', {
            tx_hash: tx.transaction.hash,
            sender_account_id: tx.transaction.signer_id,
            wait_until: 'NONE',
          }),
        ) as Json;
        if (!same(tx.outcome.execution_outcome, status.transaction_outcome))
          t.fail(`tx ${tx.transaction.hash}: outcome differs from EXPERIMENTAL_tx_status`);
      }
      const selfTxReceipts = (chunk.transactions as Json[])
        .filter((x) => x.transaction.signer_id === x.transaction.receiver_id)
        .map((x) => x.outcome.execution_outcome.outcome.receipt_ids[0]);
      t.same(
        (chunk.local_receipts as Json[]).map((r) => r.receipt_id),
        selfTxReceipts,
        'local receipts: those of the signer-is-receiver transactions, in order',
      );
      for (const r of chunk.local_receipts as Json[]) {
        localReceipts++;
        t.equal(r.receiver_id, r.predecessor_id, 'a local receipt stays with its signer');
        const executed = (shard.receipt_execution_outcomes as Json[]).find(
          (o) => o.execution_outcome.id === r.receipt_id,
        );
        t.ok(executed && same(executed.receipt, r), 'and is executed in the same chunk');
      }
      for (const ro of shard.receipt_execution_outcomes as Json[]) {
        receiptOutcomes++;
        const id = ro.execution_outcome.id as string;
        t.equal(ro.receipt.receipt_id, id);
        const rpcReceipt = JSON.parse(await rawResult(node.url, 'EXPERIMENTAL_receipt', { receipt_id: id }));
        if (!same(ro.receipt, rpcReceipt)) t.fail(`receipt ${id} differs from EXPERIMENTAL_receipt`);
        t.type(ro.tx_hash, 'string', 'every receipt is traced to its transaction');
        const status = JSON.parse(
          await rawResult(node.url, 'EXPERIMENTAL_tx_status', {
            tx_hash: ro.tx_hash,
            sender_account_id: 'test.near',
            wait_until: 'NONE',
          }),
        ) as Json;
        const match = (status.receipts_outcome as Json[]).find((o) => o.id === id);
        if (!match || !same(ro.execution_outcome, match))
          t.fail(`receipt outcome ${id} is not the one tx_status lists for ${ro.tx_hash}`);
      }
      // State changes: per account and kind, the same list `changes` answers, in the same order.
      const byAccount = new Map<string, Json[]>();
      for (const sc of shard.state_changes as Json[]) {
        changes++;
        const list = byAccount.get(sc.change.account_id) ?? [];
        list.push(sc);
        byAccount.set(sc.change.account_id, list);
      }
      for (const [account, list] of byAccount) {
        const kinds: [string, (s: Json) => boolean, Json][] = [
          ['account_changes', (s) => s.type.startsWith('account_'), {}],
          ['all_access_key_changes', (s) => s.type.startsWith('access_key_'), {}],
          ['contract_code_changes', (s) => s.type.startsWith('contract_code_'), {}],
          ['data_changes', (s) => s.type.startsWith('data_'), { key_prefix_base64: '' }],
        ];
        for (const [changes_type, pick, extra] of kinds) {
          const rpc = JSON.parse(
            await rawResult(node.url, 'changes', {
              changes_type,
              account_ids: [account],
              block_id: h,
              ...extra,
            }),
          ) as Json;
          if (!same(list.filter(pick), rpc.changes))
            t.fail(`block ${h}: ${changes_type} of ${account} differ from the changes RPC`);
        }
      }
    }
  }
  for (const h of txHashes) t.ok(seenTx.has(h), `transaction ${h} is in a streamed chunk`);

  // Field names and their order, against a real neardata message, wherever both have the object
  // (enum variants and the type-dependent `cause`/`change` aside).
  let compared = 0;
  for (const [path, keys] of keyOrders(REAL)) {
    const mine = ours.get(path);
    if (!mine || keys.some((k) => /^[A-Z]/.test(k)) || /\.(cause|change)$/.test(path)) continue;
    compared++;
    t.same(
      mine.filter((k) => !EXTRA[path]?.includes(k)),
      keys,
      `${path || 'message'}: the fields of a real neardata message, in its order`,
    );
  }
  t.ok(compared >= 15, `${compared} object shapes compared`);
  t.ok(receiptOutcomes >= 8, `receipt outcomes streamed (${receiptOutcomes})`);
  t.ok(localReceipts >= 1, 'the transfer to self is a local receipt');
  t.ok(changes >= 10, `state changes streamed (${changes})`);
});
