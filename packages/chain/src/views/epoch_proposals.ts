// The last proposal of each account in an epoch's blocks up to a height, as nearcore's epoch info
// aggregator holds it for the `validators` view. Counted once per block: the heights below the head
// never change, so each epoch's count is carried forward as the head moves, and an epoch of 43,200
// blocks is not read again on every request.
import { LruCache } from '@nearlite/store';
import { epochOf } from '../epoch.js';
import type { GenesisConfig } from '../genesis/config.js';
import type { ValidatorStake } from '../validator_stake.js';

type EpochHeights = Pick<GenesisConfig, 'genesisHeight' | 'epochLength'>;

/** The first block of the epoch of `height` (the genesis block carries no proposals). */
function epochFirstHeight(cfg: EpochHeights, height: number): number {
  return Math.max(epochOf(height, cfg.genesisHeight, cfg.epochLength).startHeight, cfg.genesisHeight + 1);
}

interface Counted {
  upTo: number;
  readonly byAccount: Map<string, ValidatorStake>;
}

/** Adds the block at `h`'s proposals (an account's later one replaces its earlier). */
function counted(c: Counted, h: number, proposals: readonly ValidatorStake[] | undefined): void {
  for (const p of proposals ?? []) c.byAccount.set(p.accountId, p);
  c.upTo = h;
}

/** nearcore's all_proposals is a BTreeMap: by account id. */
function byAccountId(m: ReadonlyMap<string, ValidatorStake>): ValidatorStake[] {
  return [...m.values()].sort((a, b) => (a.accountId < b.accountId ? -1 : a.accountId > b.accountId ? 1 : 0));
}

export class EpochProposals {
  private readonly epochs = new LruCache<number, Counted>(8);
  private counting: Promise<unknown> = Promise.resolve();

  /** Where counting the epoch that starts at `start` up to `height` begins, and the map it adds to. */
  private begin(start: number, height: number): Counted {
    const c = this.epochs.get(start);
    // A count past `height` (an older block of an epoch asked after a newer one) is not reused.
    if (c && c.upTo <= height) return c;
    const fresh = { upTo: start - 1, byAccount: new Map<string, ValidatorStake>() };
    if (!c) this.epochs.set(start, fresh);
    return fresh;
  }

  /** The proposals of the epoch of `height` up to it; `at(h)` gives a block's (none if absent). */
  upTo(
    cfg: EpochHeights,
    height: number,
    at: (h: number) => readonly ValidatorStake[] | undefined,
  ): ValidatorStake[] {
    const c = this.begin(epochFirstHeight(cfg, height), height);
    for (let h = c.upTo + 1; h <= height; h++) counted(c, h, at(h));
    return byAccountId(c.byAccount);
  }

  /** As `upTo`, over a history read asynchronously; one count at a time, each block read once. */
  upToAsync(
    cfg: EpochHeights,
    height: number,
    at: (h: number) => Promise<readonly ValidatorStake[] | undefined>,
  ): Promise<ValidatorStake[]> {
    const next = this.counting.then(async () => {
      const c = this.begin(epochFirstHeight(cfg, height), height);
      for (let h = c.upTo + 1; h <= height; h++) counted(c, h, await at(h));
      return byAccountId(c.byAccount);
    });
    this.counting = next.catch(() => undefined);
    return next;
  }
}
