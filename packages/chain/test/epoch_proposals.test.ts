// The `validators` view's proposals: the last one of each account in the epoch so far, by account id
// (nearcore's EpochInfoAggregator::all_proposals, a BTreeMap), each block read once as the head moves.
import { type PublicKey, parsePublicKey } from '@nearlite/primitives';
import t from 'tap';
import { EpochProposals } from '../src/views/epoch_proposals.js';

// Epochs of 10 blocks after a genesis at 0: heights 11–20 are one epoch.
const CFG = { genesisHeight: 0, epochLength: 10 };
const key: PublicKey = parsePublicKey('ed25519:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp');
const blocks: Record<number, { accountId: string; publicKey: PublicKey; stake: bigint }[]> = {
  11: [{ accountId: 'zed.near', publicKey: key, stake: 5n }],
  12: [{ accountId: 'amy.near', publicKey: key, stake: 7n }],
  14: [{ accountId: 'zed.near', publicKey: key, stake: 9n }],
};

t.test('counted once per block, last proposal wins, sorted by account', async (t) => {
  const p = new EpochProposals();
  const reads: number[] = [];
  const at = (h: number) => {
    reads.push(h);
    return blocks[h];
  };
  t.same(
    p.upTo(CFG, 12, at).map((x) => [x.accountId, x.stake]),
    [
      ['amy.near', 7n],
      ['zed.near', 5n],
    ],
  );
  t.same(
    p.upTo(CFG, 15, at).map((x) => [x.accountId, x.stake]),
    [
      ['amy.near', 7n],
      ['zed.near', 9n],
    ],
  );
  t.same(reads, [11, 12, 13, 14, 15], 'the second request reads only the new blocks');
  t.same(
    p.upTo(CFG, 11, at).map((x) => [x.accountId, x.stake]),
    [['zed.near', 5n]],
    'an older height is counted afresh',
  );
  const asyncReads: number[] = [];
  const q = new EpochProposals();
  const slow = async (h: number) => {
    asyncReads.push(h);
    await new Promise((r) => setTimeout(r, 1));
    return blocks[h];
  };
  const [a, b] = await Promise.all([q.upToAsync(CFG, 13, slow), q.upToAsync(CFG, 14, slow)]);
  t.same(
    a.map((x) => x.stake),
    [7n, 5n],
  );
  t.same(
    b.map((x) => x.stake),
    [7n, 9n],
  );
  t.same(asyncReads, [11, 12, 13, 14], 'concurrent counts read each block once');
});
