import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  computeBlockHash,
  EMPTY_MERKLE_TREE,
  epochHeightOf,
  epochOf,
  merkleTreeInsert,
  merkleTreeRoot,
  merklizeLeaves,
  nextGasPrice,
} from '@nearlite/chain';
import { base58Decode, type CryptoHash, combineHash, sha256, toHex } from '@nearlite/primitives';
import t from 'tap';

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8'));

function computeRoot(leaf: CryptoHash, path: { hash: string | CryptoHash; direction: string }[]): CryptoHash {
  let node = leaf;
  for (const step of path) {
    const h = typeof step.hash === 'string' ? base58Decode(step.hash) : step.hash;
    node = step.direction === 'Left' ? combineHash(h, node) : combineHash(node, h);
  }
  return node;
}

t.test('block hashes from the lite header match real light-client proofs', async (t) => {
  const expected = fixture('expected_block_merkle_roots.json');
  for (const name of [
    'proof2.json',
    'proof3.json',
    'proof4.json',
    'proof5.json',
    'proof6.json',
    'proof7.json',
  ]) {
    const proof = fixture(name);
    // JSON numbers lose digits past 2^53: take timestamp_nanosec, else the digits from the text.
    const text = readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
    const nanos = proof.block_header_lite.inner_lite.timestamp_nanosec as string | undefined;
    const timestamp = BigInt(nanos ?? /"timestamp"\s*:\s*"?(\d+)"?/.exec(text)![1]!);
    const lite = proof.block_header_lite;
    const l = lite.inner_lite;
    const hash = computeBlockHash(
      base58Decode(lite.prev_block_hash),
      {
        height: l.height,
        epochId: base58Decode(l.epoch_id),
        nextEpochId: base58Decode(l.next_epoch_id),
        prevStateRoot: base58Decode(l.prev_state_root),
        prevOutcomeRoot: base58Decode(l.outcome_root),
        timestamp,
        nextBpHash: base58Decode(l.next_bp_hash),
        blockMerkleRoot: base58Decode(l.block_merkle_root),
      },
      base58Decode(lite.inner_rest_hash),
    );
    const root = computeRoot(hash, proof.block_proof);
    t.equal(
      `0x${toHex(root)}`,
      expected[name],
      `${name}: block hash proves into the expected block merkle root`,
    );
  }
});

t.test('merkle paths prove every leaf into the root, for every tree size', async (t) => {
  for (let n = 1; n <= 17; n++) {
    const leaves = Array.from({ length: n }, (_, i) => sha256(Uint8Array.of(i)));
    const { root, paths } = merklizeLeaves(leaves);
    for (const [i, leaf] of leaves.entries()) t.same(computeRoot(leaf, paths[i]!), root, `n=${n} leaf ${i}`);
  }
});

t.test("merkle paths have nearcore's steps: one per level where the node has a sibling", async (t) => {
  // nearcore's merklize: a level's last node without a sibling is carried up as it is, and adds no
  // step to the paths beneath it. 5 leaves: 0..3 have 3 steps, leaf 4 one (the top level's).
  const leaves = Array.from({ length: 5 }, (_, i) => sha256(Uint8Array.of(i)));
  const { paths } = merklizeLeaves(leaves);
  t.same(
    paths.map((p) => p.map((s) => s.direction)),
    [
      ['Right', 'Right', 'Right'],
      ['Left', 'Right', 'Right'],
      ['Right', 'Left', 'Right'],
      ['Left', 'Left', 'Right'],
      ['Left'],
    ],
  );
  t.same(
    paths[4]![0]!.hash,
    combineHash(combineHash(leaves[0]!, leaves[1]!), combineHash(leaves[2]!, leaves[3]!)),
  );
  t.same(paths[0]![0]!.hash, leaves[1]);
  t.same(paths[3]![1]!.hash, combineHash(leaves[0]!, leaves[1]!));
  t.same(merklizeLeaves(leaves.slice(0, 1)), { root: leaves[0], paths: [[]] }, 'one leaf is the root');
});

t.test('the partial merkle tree of block hashes agrees with merklize', async (t) => {
  let tree = EMPTY_MERKLE_TREE;
  const leaves: CryptoHash[] = [];
  for (let n = 1; n <= 12; n++) {
    const h = sha256(Uint8Array.of(n, 42));
    leaves.push(h);
    tree = merkleTreeInsert(tree, h);
    t.same(merkleTreeRoot(tree), merklizeLeaves(leaves).root, `${n} blocks`);
  }
});

t.test("gas price follows nearcore's adjustment and clamps", async (t) => {
  const min = 100_000_000n;
  const max = 10n ** 22n;
  t.equal(nextGasPrice(min, 0n, 10n ** 15n, [1, 100], min, max), min, 'empty blocks keep the minimum');
  t.equal(
    nextGasPrice(min, 10n ** 15n, 10n ** 15n, [1, 100], min, max),
    100_500_000n,
    'full blocks raise by rate/2',
  );
  t.equal(nextGasPrice(200_000_000n, 0n, 10n ** 15n, [1, 100], min, max), 199_000_000n);
});

t.test('epochs after genesis have fixed length', async (t) => {
  t.same(epochOf(1, 0, 10), { index: 0, startHeight: 1, endHeight: 10 });
  t.same(epochOf(10, 0, 10), { index: 0, startHeight: 1, endHeight: 10 });
  t.same(epochOf(11, 0, 10), { index: 1, startHeight: 11, endHeight: 20 });
  // nearcore's epoch heights: the genesis' epoch info (1) serves the first two epochs, whose ids are
  // the zero hash and the genesis hash (epoch-manager record_block_info); then one more an epoch.
  t.same(
    [1, 10, 11, 20, 21, 35].map((h) => epochHeightOf(h, 0, 10)),
    [1, 1, 1, 1, 2, 3],
  );
});
