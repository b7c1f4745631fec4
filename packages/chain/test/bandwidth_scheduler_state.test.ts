// Every chunk runs nearcore's bandwidth scheduler and writes its state into the shard's trie
// (TrieKey::BandwidthSchedulerState, the byte 15 alone), so a shard's state root moves at every
// height, as nearcore's does. With four shards and no bandwidth requests, each height raises every
// link's allowance by max_shard_bandwidth / 4 = 1_125_000 (parameters.snap: 4_500_000), up to
// max_allowance 4_500_000, then grants base_bandwidth 100_000 on it: after five chunks or more,
// 4_400_000 on all sixteen links.
import { trieStorage } from '@nearlite/chain';
import { toHex } from '@nearlite/primitives';
import { decodeBandwidthSchedulerState } from '@nearlite/runtime';
import { Store } from '@nearlite/store';
import { Trie } from '@nearlite/trie';
import t from 'tap';
import { openProtocol86Chain, protocol86Localnet } from '../../../test/helpers/protocol86_chain.js';
import { FIRST_SANITY_HASH, nextSanityHash } from '../../../test/helpers/scheduler_sanity.js';

const SHARDS = [0, 1, 2, 3];

t.test("each shard's trie holds the scheduler's state after every chunk, on LevelDB", async (t) => {
  const { raw, signer } = protocol86Localnet(4);
  const store = await Store.open(t.testdir());
  t.teardown(() => store.close());
  const chain = await openProtocol86Chain(raw, signer, store);
  const stateAt = (hash: Uint8Array, shardId: number) => {
    const root = chain.chainStore.chunkExtra(hash, shardId)!.stateRoot;
    return { root: toHex(root), value: new Trie(trieStorage(store), root).get(Uint8Array.of(15)) };
  };
  const genesis = chain.head().hash;
  for (const s of SHARDS) t.equal(stateAt(genesis, s).value, undefined, 'none in the genesis state');

  let sanity = FIRST_SANITY_HASH;
  let roots = SHARDS.map((s) => stateAt(genesis, s).root);
  let allowance = 0;
  for (let i = 0; i < 6; i++) {
    allowance = Math.min(allowance + 1_125_000, 4_500_000) - 100_000;
    const block = await chain.produceBlock();
    sanity = nextSanityHash(sanity, SHARDS);
    const next = SHARDS.map((s) => stateAt(block.hash, s).root);
    t.ok(
      next.every((r, s) => r !== roots[s]),
      `block ${i + 1}: every shard's root moved, though its chunk was empty`,
    );
    roots = next;
    for (const s of SHARDS) {
      const state = decodeBandwidthSchedulerState(stateAt(block.hash, s).value!);
      t.equal(toHex(state.sanityCheckHash), toHex(sanity));
      t.ok(
        state.linkAllowances.length === 16 && state.linkAllowances.every((l) => l.allowance === allowance),
        `block ${i + 1}, shard ${s}: every link at ${allowance}`,
      );
    }
  }
});
