// The state changes a block stores are what its chunks did to every shard's state. Under a workload
// that keeps every shard's state changing (churn.ts), after every block: every key of an account,
// its code, access keys or contract data whose value differs between the states before and after
// the block has a row, every row ends on the value the state after the block holds (a removal on
// none), and no row is of another column (nearcore's state_changes_into keeps these four).
import { decodeStateChangeRecords } from '@nearlite/chain';
import { toHex } from '@nearlite/primitives';
import { DBCol, Store } from '@nearlite/store';
import { TrieKeyCol } from '@nearlite/trie';
import t from 'tap';
import { openProtocol86Chain } from '../../../test/helpers/protocol86_chain.js';
import { rng } from '../../../test/helpers/rng.js';
import { Churn } from './churn.js';
import { Sender, withUsers } from './four_shards.js';

const REPORTED = new Set<number>([
  TrieKeyCol.Account,
  TrieKeyCol.ContractCode,
  TrieKeyCol.AccessKey,
  TrieKeyCol.ContractData,
]);

t.test("a block's state changes are the differences between the states around it", async (t) => {
  const random = rng(Number(process.env.CHANGES_FUZZ_SEED ?? 7));
  const { raw, signer } = withUsers();
  const chain = await openProtocol86Chain(raw, signer, await Store.memory(), { vm: true });
  const sender = new Sender(chain, signer);
  const churn = new Churn(chain, signer, sender, random);
  t.ok(await churn.deploy(), 'every account has the contract');

  /** Every reported key on every shard at a block, hex key → hex value. */
  const stateAt = (blockHash: Uint8Array) => {
    const out = new Map<string, string>();
    for (const shardId of chain.layout.shardIds)
      for (const [k, v] of chain.stateTrie(blockHash, shardId)!.iterPrefix(new Uint8Array(0)))
        if (REPORTED.has(k[0]!)) out.set(toHex(k), toHex(v));
    return out;
  };
  let before = stateAt(chain.head().hash);
  const seen = new Set<number>();
  let changed = 0;
  for (let block = 0; block < 40; block++) {
    churn.send(8);
    const header = await chain.produceBlock();
    churn.afterBlock();
    const after = stateAt(header.hash);
    const rows = new Map<string, string | null>();
    for await (const [k, v] of chain.store.iter(DBCol.StateChanges, header.hash)) {
      const key = k.subarray(32);
      seen.add(key[0]!);
      const last = decodeStateChangeRecords(v).at(-1)!.value;
      rows.set(toHex(key), last && toHex(last));
    }
    const problems: string[] = [];
    for (const key of new Set([...before.keys(), ...after.keys()]))
      if (before.get(key) !== after.get(key) && !rows.has(key)) problems.push(`${key} changed with no row`);
    for (const [key, value] of rows)
      if (value !== (after.get(key) ?? null))
        problems.push(`${key}'s row ends on ${value}, the state holds ${after.get(key)}`);
    if (problems.length > 0) {
      t.fail(`height ${header.lite.height}: ${problems.length} wrong, the first ${problems[0]}`);
      return;
    }
    changed += rows.size;
    before = after;
  }
  t.pass(`after each of 40 blocks the stored changes (${changed} rows) were the state's differences`);
  t.same(
    [...seen].sort((a, b) => a - b),
    [...REPORTED].sort((a, b) => a - b),
    'rows of every reported column, and of no other',
  );
  const { created, deleted } = churn.counts();
  t.ok(deleted > 0, `accounts were created (${created}) and deleted (${deleted})`);
});
