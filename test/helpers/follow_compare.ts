// What a follower must answer as its producer does, asked of both: every read method, for every
// height of a workload's chain and every transaction and receipt it carried. Each follower's raw
// answer must be the producer's byte for byte, so followers that pass agree with each other too.
import type { Test } from 'tap';
import { accountReads } from './account_reads.js';
import { type RunningNode, rawRpc, waitForHeight } from './node.js';
import { rng, type Workload } from './workload.js';

type Json = { result?: Record<string, unknown>; error?: unknown };
type RawAnswer = Awaited<ReturnType<typeof rawRpc>>;

/**
 * The producer's answers, kept by request, for comparing several followers one after another with a
 * chain whose compared heights no longer change.
 */
export type ProducerAnswers = Map<string, Promise<RawAnswer>>;

/** Asks the producer (or the answers kept from it) and each follower; every raw body must be the producer's. */
export function comparer(
  test: Test,
  producer: RunningNode,
  followers: [name: string, node: RunningNode][],
  kept?: ProducerAnswers,
) {
  let compared = 0;
  let mismatches = 0;
  const ask = (method: string, params: unknown): Promise<RawAnswer> => {
    if (!kept) return rawRpc(producer.url, method, params);
    const key = `${method} ${JSON.stringify(params)}`;
    let answer = kept.get(key);
    if (!answer) {
      answer = rawRpc(producer.url, method, params);
      kept.set(key, answer);
    }
    return answer;
  };
  const same = async (method: string, params: unknown, what: string): Promise<Json> => {
    const [a, ...answers] = (await Promise.all([
      ask(method, params),
      ...followers.map(([, f]) => rawRpc(f.url, method, params)),
    ])) as [RawAnswer, ...RawAnswer[]];
    for (const [i, [name]] of followers.entries()) {
      const b = answers[i]!;
      // One assertion per call keeps the output readable; the body carries the status's meaning.
      if (b.body !== a.body || b.status !== a.status) {
        test.equal(`${b.status} ${b.body}`, `${a.status} ${a.body}`, `${name}: ${method} ${what}`);
        // Past a few, more of the same only buries the first one.
        if (++mismatches >= 20) throw new Error("20 answers differ from the producer's; stopping");
      }
    }
    compared++;
    return JSON.parse(a.body) as Json;
  };
  return { same, count: () => compared };
}

/** Heights compared at once: a height's reads follow one another, so a few in flight keep both nodes busy. */
const HEIGHTS_IN_FLIGHT = 4;

/** Runs `fn` for 0..count-1, at most `limit` at a time; after a failure no new one starts. */
export async function inFlight(
  count: number,
  limit: number,
  fn: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < count) {
      const i = next++;
      try {
        await fn(i);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
}

/** Every height 0..top: block, chunks, changes, and a random sample of accounts, keys, state and calls. */
export async function compareHistory(
  test: Test,
  producer: RunningNode,
  followers: [string, RunningNode][],
  w: Workload,
  shards: readonly number[],
  top: number,
  seed: number,
  full: boolean,
  kept?: ProducerAnswers,
): Promise<{ txs: [string, string][]; compared: number; busyShards: Set<number> }> {
  const { same, count } = comparer(test, producer, followers, kept);
  const busyShards = new Set<number>();
  const busyAt = new Set<string>();
  const accounts = [...w.accounts, 'near', 'nobody.test.near'];
  const txsAt: [string, string][][] = [];
  const compareHeight = async (h: number): Promise<void> => {
    // A sample of its own for each height, so that what is asked does not hang on which heights
    // finish first.
    const rand = rng(seed + h * 1_000_003);
    const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!;
    const found: [string, string][] = [];
    txsAt[h] = found;
    const block = await same('block', { block_id: h }, `#${h}`);
    if (!block.result) return;
    await same('EXPERIMENTAL_changes_in_block', { block_id: h }, `#${h}`);
    for (const shard of shards) {
      const chunk = await same('chunk', { block_id: h, shard_id: shard }, `#${h}/${shard}`);
      const body = chunk.result as {
        transactions?: { hash: string; signer_id: string }[];
        receipts?: unknown[];
      };
      for (const tx of body?.transactions ?? []) found.push([tx.hash, tx.signer_id]);
      if ((body?.transactions?.length ?? 0) + (body?.receipts?.length ?? 0) > 0) {
        busyShards.add(shard);
        busyAt.add(`${h}/${shard}`);
      }
    }
    // Blocks, chunks and changes at every height; state reads where something happened and at a
    // random eighth of the quiet heights.
    const busy = shards.some((s) => busyAt.has(`${h}/${s}`));
    if (!full && !busy && rand(8) !== 0) return;
    const sample = full ? accounts : [pick(accounts), pick(accounts)];
    for (const account_id of sample)
      for (const r of accountReads(account_id, h)) await same(r.method, r.params, r.what);
    const [keyOwner, publicKey] = pick(w.keys);
    await same(
      'query',
      { request_type: 'view_access_key', account_id: keyOwner, public_key: publicKey, block_id: h },
      `key ${keyOwner} ${publicKey} #${h}`,
    );
    await same(
      'EXPERIMENTAL_changes',
      {
        changes_type: 'single_access_key_changes',
        keys: [{ account_id: keyOwner, public_key: publicKey }],
        block_id: h,
      },
      `single key changes ${keyOwner} #${h}`,
    );
    const holder = pick(accounts);
    for (const method of ['get_balance', 'get_total_supply']) {
      await same(
        'query',
        {
          request_type: 'call_function',
          account_id: w.token,
          method_name: method,
          args_base64: btoa(JSON.stringify({ owner_id: holder })),
          block_id: h,
        },
        `${method} ${holder} #${h}`,
      );
    }
    const withCode = pick(w.contracts);
    const whole = await same(
      'query',
      { request_type: 'view_state', account_id: withCode, prefix_base64: '', block_id: h },
      `state ${withCode} #${h}`,
    );
    await comparePages(test, same, withCode, h, whole);
    await same(
      'query',
      { request_type: 'view_code', account_id: withCode, block_id: h },
      `code ${withCode} #${h}`,
    );
    await same(
      'EXPERIMENTAL_changes',
      { changes_type: 'data_changes', account_ids: [withCode], key_prefix_base64: '', block_id: h },
      `data ${withCode} #${h}`,
    );
    await same(
      'EXPERIMENTAL_changes',
      { changes_type: 'contract_code_changes', account_ids: [withCode], block_id: h },
      `code changes ${withCode} #${h}`,
    );
  };
  await inFlight(top + 1, HEIGHTS_IN_FLIGHT, compareHeight);
  const txs = txsAt.flat();
  return { txs, compared: count(), busyShards };
}

/**
 * The same state in pages of three keys, each page after the last one's `last_key` (the bounded walk
 * of the producer's trie and of a follower's history alike); joined, the pages are the whole view.
 */
async function comparePages(
  test: Test,
  same: ReturnType<typeof comparer>['same'],
  account: string,
  h: number,
  whole: Json,
): Promise<void> {
  const values: unknown[] = [];
  let after: string | undefined;
  for (let n = 0; n < 12; n++) {
    const page = await same(
      'query',
      {
        request_type: 'view_state',
        account_id: account,
        prefix_base64: '',
        block_id: h,
        limit: 3,
        ...(after === undefined ? {} : { after_key_base64: after }),
      },
      `state ${account} #${h} page ${n}`,
    );
    if (!page.result) return;
    values.push(...(page.result.values as unknown[]));
    after = page.result.last_key as string | undefined;
    if (after === undefined) break;
  }
  const all = whole.result?.values as unknown[] | undefined;
  if (after === undefined && all)
    test.same(values, all, `state ${account} #${h}: the pages join to the whole`);
}

export async function compareTransactions(
  test: Test,
  producer: RunningNode,
  followers: [string, RunningNode][],
  txs: [string, string][],
): Promise<number> {
  const { same, count } = comparer(test, producer, followers);
  for (const [hash, signer] of txs) {
    await same('tx', { tx_hash: hash, sender_account_id: signer, wait_until: 'NONE' }, hash);
    const st = await same(
      'EXPERIMENTAL_tx_status',
      { tx_hash: hash, sender_account_id: signer, wait_until: 'NONE' },
      hash,
    );
    for (const o of (st.result?.receipts_outcome ?? []) as { id: string }[]) {
      await same('EXPERIMENTAL_receipt', { receipt_id: o.id }, o.id);
      await same('EXPERIMENTAL_receipt_to_tx', { receipt_id: o.id }, `${o.id} to its transaction`);
    }
    // No receipt has the transaction's hash: the walk goes down every kept block to say so.
    await same('EXPERIMENTAL_receipt_to_tx', { receipt_id: hash }, `${hash} is not a receipt`);
    // Asked again, a FINAL transaction is answered from each node's cache of serialized answers,
    // which must hold the same bytes as the answer built from the outcomes.
    for (const method of ['tx', 'EXPERIMENTAL_tx_status'])
      await same(method, { tx_hash: hash, sender_account_id: signer, wait_until: 'NONE' }, `${hash} again`);
  }
  return count();
}

async function finalHeight(node: RunningNode): Promise<number> {
  const { body } = await node.rpc<{ header: { height: number } }>('block', { finality: 'final' });
  return body.result!.header.height;
}

/** Once a workload is done: a final height past every receipt and refund it set off. */
export async function settledTop(producer: RunningNode): Promise<number> {
  // Every receipt and refund of the last deletion lands a few blocks later.
  const settled = (await producer.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' }))
    .body.result!.header.height;
  await waitForHeight(producer, settled + 8, 60_000);
  let top = await finalHeight(producer);
  while (top < settled + 5) {
    await new Promise((r) => setTimeout(r, 100));
    top = await finalHeight(producer);
  }
  return top;
}
