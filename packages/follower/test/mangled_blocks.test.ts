// Real blocks from the stream fixtures, each with a value or two in its shards replaced or dropped
// (seeded). What the follower's checks let through is stored, and everything a reader then asks of
// that block (the block, its chunks and changes, each transaction's status, each receipt, the
// accounts it changed) answers a result or a typed error: never INTERNAL_ERROR. A source sending
// such a block is not to be trusted, but the node it feeds must not serve failures for what it took.
import { ingestBlock } from '@nearlite/follower';
import t from 'tap';
import { rng } from '../../../test/helpers/rng.js';
import { fixtureNames, freshMessage } from '../../../test/helpers/stream_fixtures.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { prepareBlock } from '../src/prepare.js';
import { openFollower, rpc } from './helpers.js';

const ODD: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 64,
  '',
  'x',
  '\u0000',
  [],
  {},
  '18446744073709551616',
  'AA==',
  { a: 1 },
  ['x'],
];

interface Shard {
  readonly shard_id: number;
  readonly chunk?: {
    readonly transactions?: { readonly transaction?: { hash: string; signer_id: string } }[];
  };
  readonly receipt_execution_outcomes?: { readonly receipt?: { receipt_id: string } }[];
  readonly state_changes?: { readonly change?: { account_id?: unknown } }[];
}

/** Every read a client could make of what the block stored. */
function readsOf(height: number, shards: readonly Shard[]): [string, unknown][] {
  const calls: [string, unknown][] = [
    ['block', { block_id: height }],
    ['EXPERIMENTAL_changes_in_block', { block_id: height }],
    ['block_effects', { block_id: height }],
  ];
  for (const s of shards) {
    if (s === null || typeof s !== 'object') continue;
    calls.push(['chunk', { block_id: height, shard_id: s.shard_id }]);
    for (const tx of s.chunk?.transactions ?? []) {
      if (!tx?.transaction) continue;
      const { hash, signer_id } = tx.transaction;
      calls.push([
        'EXPERIMENTAL_tx_status',
        { tx_hash: hash, sender_account_id: signer_id, wait_until: 'NONE' },
      ]);
    }
    for (const r of s.receipt_execution_outcomes ?? []) {
      if (!r?.receipt) continue;
      calls.push(['EXPERIMENTAL_receipt', { receipt_id: r.receipt.receipt_id }]);
      calls.push(['EXPERIMENTAL_receipt_to_tx', { receipt_id: r.receipt.receipt_id }]);
    }
    for (const c of (s.state_changes ?? []).slice(0, 4)) {
      const id = c?.change?.account_id;
      if (typeof id !== 'string') continue;
      calls.push([
        'EXPERIMENTAL_changes',
        { block_id: height, changes_type: 'account_changes', account_ids: [id] },
      ]);
      calls.push(['query', { request_type: 'view_account', account_id: id, block_id: height }]);
      calls.push(['query', { request_type: 'view_access_key_list', account_id: id, block_id: height }]);
    }
  }
  return calls;
}

t.test('mangled blocks: what the follower stores, it serves without internal errors', async (t) => {
  const r = rng(2026);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const names = fixtureNames({ verifiable: true, whole: true });
  const dir = tempDir(t);
  const problems: string[] = [];
  let stored = 0;
  let refused = 0;
  for (let i = 0; i < 160; i++) {
    const name = pick(names);
    const message = freshMessage(name);
    const places: [Record<string, unknown>, string][] = [];
    const walk = (v: unknown, depth: number) => {
      if (depth > 10 || v === null || typeof v !== 'object') return;
      for (const [k, x] of Object.entries(v)) {
        places.push([v as Record<string, unknown>, k]);
        walk(x, depth + 1);
      }
    };
    walk(message.shards, 0);
    if (places.length === 0) continue;
    for (let j = 1 + Math.floor(r() * 2); j > 0; j--) {
      const [parent, key] = pick(places);
      if (r() < 0.2) delete parent[key];
      else parent[key] = pick(ODD);
    }
    // The preparing thread's checks, which never throw: a refusal is the loop's to retry.
    if ('refused' in prepareBlock(message)) {
      refused++;
      continue;
    }
    const { store, history, backend } = await openFollower(`${dir}/${i}`);
    try {
      // A genesis at the block's parent: the history holds the whole state, so every read is answered.
      const { header } = message.block;
      await history.writeGenesis(header.prev_height ?? header.height - 1, []);
      await ingestBlock(history, message);
      stored++;
      const shards = message.shards as unknown as readonly Shard[];
      for (const [method, params] of readsOf(message.block.header.height, shards)) {
        const a = await rpc(backend, method, params);
        if (a.status >= 500 || a.error?.name === 'INTERNAL_ERROR')
          problems.push(`${name} #${i} ${method} ${JSON.stringify(params)}: ${a.body.slice(0, 240)}`);
      }
    } catch (err) {
      if ((err as Error).name !== 'BlockVerificationError') problems.push(`${name} #${i}: ${String(err)}`);
    } finally {
      await store.close();
    }
  }
  t.ok(stored > 40 && refused > 40, `${stored} stored, ${refused} refused`);
  t.same(problems.slice(0, 8), [], 'every read answered');
});
