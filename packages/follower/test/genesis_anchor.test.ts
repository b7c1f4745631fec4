// Which first blocks show another genesis than the follower's genesis.json: the genesis block by its
// hash (NEAR's networks) or by the fields nearcore's Block::genesis takes from the config (height,
// timestamp, total supply), and a first block after the genesis of a NEAR network by its parent.
import {
  checkGenesisAnchor,
  type GenesisAnchor,
  genesisAnchor,
  HistoryStore,
  ingestBlocks,
  StreamGenesisError,
} from '@nearlite/follower';
import { base58Encode } from '@nearlite/primitives';
import { Store } from '@nearlite/store';
import t from 'tap';
import { syntheticChain } from '../../../test/helpers/synthetic_chain.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { mainnetGenesis } from './helpers.js';

const ZERO = '11111111111111111111111111111111';
// nearcore's chain/chain/src/chain.rs asserts these genesis hashes for mainnet and testnet.
const MAINNET_GENESIS_HASH = 'EPnLgE7iEq9s7yTkos96M3cWymH5avBAPm3qx3NXqR8H';
const TESTNET_GENESIS_HASH = 'FWJ9kR6KFWoyMoNjpLXXGHeuiy7tEY6GmoFeCA5yuc6b';

const refusedBy = (anchor: GenesisAnchor, b: Parameters<typeof checkGenesisAnchor>[1]) => {
  try {
    checkGenesisAnchor(anchor, b);
    return null;
  } catch (err) {
    if (!(err instanceof StreamGenesisError)) throw err;
    return err;
  }
};

t.test("mainnet's genesis.json: the genesis block and its child by mainnet's genesis hash", async (t) => {
  const anchor = genesisAnchor(mainnetGenesis().config);
  t.equal(anchor.hash, MAINNET_GENESIS_HASH);
  const genesis = { height: 9_820_210, prevHash: ZERO, prevHeight: null };
  t.equal(refusedBy(anchor, { ...genesis, hash: MAINNET_GENESIS_HASH }), null, "mainnet's genesis block");
  const testnet = refusedBy(anchor, { ...genesis, hash: TESTNET_GENESIS_HASH });
  t.equal(testnet?.check, 'genesis');
  t.equal(testnet?.fatal, true, 'following stops: a refetch would meet the same block');
  t.match(testnet?.message, /block 9820210 refused \(genesis\): the stream's genesis block is FWJ9kR6K/);
  t.match(
    refusedBy(anchor, { height: 42_376_888, prevHash: ZERO, prevHeight: null, hash: TESTNET_GENESIS_HASH })
      ?.message,
    /genesis block is at #42376888, genesis\.json's genesis_height is 9820210/,
  );
  const child = { height: 9_820_211, prevHeight: 9_820_210, hash: 'Child' };
  t.equal(
    refusedBy(anchor, { ...child, prevHash: MAINNET_GENESIS_HASH }),
    null,
    'the child of mainnet’s genesis',
  );
  t.match(
    refusedBy(anchor, { ...child, prevHash: TESTNET_GENESIS_HASH })?.message,
    /follows genesis FWJ9kR6K/,
  );
  t.equal(
    refusedBy(anchor, {
      height: 120_000_000,
      prevHeight: 119_999_999,
      prevHash: TESTNET_GENESIS_HASH,
      hash: 'X',
    }),
    null,
    'a window of the chain has no genesis to compare',
  );
});

t.test("any other chain's genesis block: its height, timestamp and total supply", async (t) => {
  const anchor: GenesisAnchor = {
    height: 0,
    timestampNs: 1_765_000_000_123_456_789n,
    totalSupply: 10n ** 33n,
    hash: null,
  };
  const block = {
    height: 0,
    hash: 'G',
    prevHash: ZERO,
    prevHeight: null,
    genesis: { timestampNs: '1765000000123456789', totalSupply: '1000000000000000000000000000000000' },
  };
  t.equal(refusedBy(anchor, block), null, 'the same genesis');
  t.match(
    refusedBy(anchor, { ...block, genesis: { ...block.genesis, timestampNs: '1765000000123456790' } })
      ?.message,
    /timestamp 1765000000123456790, genesis\.json's genesis_time is 1765000000123456789 ns/,
    'a nanosecond apart',
  );
  t.match(
    refusedBy(anchor, { ...block, genesis: { ...block.genesis, totalSupply: '1' } })?.message,
    /total_supply 1, genesis\.json's is 10{33}/,
  );
  t.match(refusedBy(anchor, { ...block, height: 5 })?.message, /genesis block is at #5/);
  t.equal(
    refusedBy(anchor, { height: 7, prevHeight: 0, prevHash: 'SomeGenesis', hash: 'B' }),
    null,
    'a first block after the genesis: nothing known to compare its parent with',
  );
});

t.test(
  'a writer on its own thread (as PostgreSQL is written) refuses the same and writes nothing',
  async (t) => {
    const store = await Store.open(tempDir(t));
    t.teardown(() => store.close());
    const history = new HistoryStore(store);
    const chain = syntheticChain(4, { from: 101, afterGenesis: 100 });
    const parent = chain[0]!.block.header.prev_hash;
    const other = base58Encode(new Uint8Array(32).fill(2));
    const anchor = (hash: string): GenesisAnchor => ({ height: 100, timestampNs: 0n, totalSupply: 0n, hash });
    await t.rejects(ingestBlocks(history, chain.slice(0, 3), anchor(other)), {
      name: 'BlockVerificationError',
      check: 'genesis',
      fatal: true,
    });
    t.equal(history.cursor(), null, 'nothing written');
    await ingestBlocks(history, chain.slice(0, 3), anchor(parent));
    t.equal(history.cursor()?.height, 103, 'the chain of that genesis is written');
    await ingestBlocks(history, chain.slice(3), anchor(other));
    t.equal(history.cursor()?.height, 104, 'only the first block of a history is compared');
  },
);
