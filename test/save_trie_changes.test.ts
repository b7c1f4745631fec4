// `save_trie_changes`, as nearcore defaults it: a node that collects garbage keeps each block's trie
// deletions (TrieChanges) for GC to release, an archival one does not unless its config.json asks,
// and either way every block's state stays readable.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DBCol, Store } from '@nearlite/store';
import t from 'tap';
import { initHome, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

async function transfersThenRows(
  t: Tap.Test,
  args: readonly string[],
  config: Record<string, unknown> = {},
): Promise<{ trieChangesRows: number; balances: string[] }> {
  const { Account, JsonRpcProvider } = await import('near-api-js');
  const home = tempDir(t);
  initHome(home);
  const path = join(home, 'config.json');
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), ...config }));
  const key = JSON.parse(readFileSync(join(home, 'validator_key.json'), 'utf8'));
  const node = await startNode(home, ['--block-time', '50', ...args]);
  t.teardown(() => node.stop());
  await waitForHeight(node, 3);
  const root = new Account('test.near', new JsonRpcProvider({ url: node.url }), key.secret_key);
  const heights: number[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await root.signAndSendTransaction({
      receiverId: 'test.near',
      actions: [(await import('near-api-js')).actions.transfer(1n)],
      waitUntil: 'FINAL',
    });
    const block = await node.rpc<{ header: { height: number } }>('block', {
      block_id: r.transaction_outcome.block_hash,
    });
    heights.push(block.body.result!.header.height);
  }
  // The state as of each transaction's block and before the first, read back through RPC.
  const balances: string[] = [];
  for (const h of [heights[0]! - 1, ...heights]) {
    const v = await node.rpc<{ amount: string }>('query', {
      request_type: 'view_account',
      account_id: 'test.near',
      block_id: h,
    });
    balances.push(v.body.result?.amount ?? JSON.stringify(v.body.error));
  }
  await node.stop();
  const store = await Store.open(join(home, 'data'));
  let trieChangesRows = 0;
  for await (const _ of store.iter(DBCol.TrieChanges)) trieChangesRows++;
  await store.close();
  return { trieChangesRows, balances };
}

function distinctNumbers(t: Tap.Test, balances: string[]): void {
  t.equal(balances.length, 4);
  for (const b of balances) t.match(b, /^\d+$/, 'every block answers view_account');
  t.equal(new Set(balances).size, 4, 'each transfer moved the balance (its gas)');
}

t.test('a node that collects garbage keeps its blocks’ trie deletions', async (t) => {
  const r = await transfersThenRows(t, []);
  t.ok(r.trieChangesRows >= 3, `${r.trieChangesRows} TrieChanges rows`);
  distinctNumbers(t, r.balances);
});

t.test('an archival node keeps none, and still reads every block’s state', async (t) => {
  const r = await transfersThenRows(t, ['--archive']);
  t.equal(r.trieChangesRows, 0);
  distinctNumbers(t, r.balances);
});

t.test('config.json’s save_trie_changes keeps them on an archival node', async (t) => {
  const r = await transfersThenRows(t, ['--archive'], { save_trie_changes: true });
  t.ok(r.trieChangesRows >= 3, `${r.trieChangesRows} TrieChanges rows`);
  distinctNumbers(t, r.balances);
});
