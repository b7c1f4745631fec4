// A chain stopped and opened again after every wave of transactions leaves the same state as one
// that ran on: after each wave, the same state root on every shard and the same total supply. The
// two chains share a genesis and a validator key, and make the same blocks at the same heights, so
// only what the restarted process no longer holds in memory differs: the trie's node caches, the
// flat state's, the compiled contracts, the filter of the trie nodes present, the rows a store
// caches. None of it may change what a chunk charges or writes. nearcore charges a contract's
// storage access by the trie nodes on its key's path, at the cheaper read_cached_trie_node for
// those the chunk has touched before, never by what the node has cached; the contracts here write
// storage on every callback, so a charge that followed a cache would show in the supply and in the
// callers' balances. The chains are real LevelDB stores on disk.
import { join } from 'node:path';
import { toHex } from '@nearlite/primitives';
import { Store } from '@nearlite/store';
import t from 'tap';
import { openProtocol86Chain } from '../../../test/helpers/protocol86_chain.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import {
  accountState,
  ChainTwin,
  commutingWaves,
  send,
  settle,
  stateDifferences,
} from './commuting_waves.js';
import { deployToUsers, withUsers } from './four_shards.js';
import { relay } from './relay_contract.js';

const WAVES = Number(process.env.RESTART_WAVES ?? 10);

t.test('a chain restarted after every wave makes the same state as one that ran on', async (t) => {
  const seed = Number(process.env.RESTART_SEED ?? 20261205);
  t.comment(`seed ${seed} (RESTART_SEED reruns it)`);
  const relayCode = await relay('write');
  const { raw, signer } = withUsers([], 4, 1000);
  const dir = tempDir(t);
  const stores: Store[] = [];
  t.teardown(async () => {
    for (const store of stores) await store.close();
  });
  const open = async (name: string, nonces: ReadonlyMap<string, bigint> = new Map()): Promise<ChainTwin> => {
    const store = await Store.open(join(dir, name));
    stores.push(store);
    const chain = await openProtocol86Chain(raw, signer, store, { vm: true });
    const twin = new ChainTwin(name, chain, signer);
    for (const [id, n] of nonces) twin.nonces.set(id, n);
    return twin;
  };
  const ran = await open('ran');
  let restarted = await open('restarted');
  for (const twin of [ran, restarted])
    t.ok(await deployToUsers(twin.chain, twin.sender, relayCode), `${twin.name}: relays deployed`);

  const roots = (twin: ChainTwin) => {
    const head = twin.chain.head().hash;
    return twin.chain.layout.shardIds.map((shardId) =>
      toHex(twin.chain.chainStore.chunkExtra(head, shardId)!.stateRoot),
    );
  };
  const waves = commutingWaves(seed, relayCode);
  let restarts = 0;
  for (let wave = 0; wave < WAVES; wave++) {
    const ops = waves.next();
    for (const twin of [ran, restarted]) for (const op of ops) send(twin, op);
    const blocks = [await settle(ran), await settle(restarted)];
    waves.settled();
    const heights = [ran, restarted].map((twin) => twin.chain.headHeader().lite.height);
    const a = accountState(ran);
    const b = accountState(restarted);
    const differences = stateDifferences(a, b, ['ran', 'restarted']);
    const supplies = [ran, restarted].map((twin) => twin.chain.headHeader().rest.totalSupply);
    if (
      heights[0] !== heights[1] ||
      differences.length > 0 ||
      supplies[0] !== supplies[1] ||
      roots(ran).join() !== roots(restarted).join()
    ) {
      t.equal(heights[1], heights[0], `wave ${wave}: heights (after ${blocks.join(' and ')} blocks)`);
      t.same(differences, [], `wave ${wave}: accounts`);
      t.equal(supplies[1], supplies[0], `wave ${wave}: total supply`);
      t.same(roots(restarted), roots(ran), `wave ${wave}: state roots`);
      return;
    }
    // The restart: the store closed and opened again, and a chain (a runtime, a contract cache) on it.
    const nonces = new Map(restarted.nonces);
    await restarted.chain.store.close();
    stores.splice(stores.indexOf(restarted.chain.store), 1);
    restarted = await open('restarted', nonces);
    restarts++;
  }
  const final = accountState(ran);
  const records = [...final.keys()].filter((k) => k.startsWith('data ')).length;
  t.comment(`${waves.calls} relayed calls, ${records} callback records, ${restarts} restarts`);
  t.ok(waves.calls > 0 && records === waves.calls, 'every relayed call left its callback record');
  t.equal(restarts, WAVES, 'and the second chain was restarted after every wave');
});
