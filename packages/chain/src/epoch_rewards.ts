// Validator rewards and minting at the end of an epoch, as nearcore's epoch manager pays them
// (chain/epoch-manager lib.rs finalize_epoch / compute_stake_return_info, validator_selection.rs
// apply_epoch_update_to_proposals), with the reward itself from reward_calculator.ts.
// The reward of epoch T is minted in the first block of T + 1 (its header's total supply) and paid by
// that block's chunks; in the epoch info of T + 2 it also raises each validator's stake, which weighs
// the rewards from then on. The same step returns locked balance nobody's stake holds any more.
import { type CryptoHash, concatBytes, type PublicKey, toHex, utf8 } from '@nearlite/primitives';
import type { ValidatorAccountsUpdate } from '@nearlite/runtime';
import { DBCol, LruCache, type Store, type StoreUpdate } from '@nearlite/store';
import { epochOf } from './epoch.js';
import type { GenesisConfig } from './genesis/config.js';
import {
  type BlockChunkValidatorStats,
  calculateReward,
  type EpochReward,
  type RewardCalculator,
  type RewardEpochConfig,
  rewardCalculatorOf,
  rewardEpochConfig,
  type ValidatorStats,
} from './reward_calculator.js';

/** What an epoch's reward reads of a block: its hash names the kept result. */
export interface RewardBlockInfo {
  readonly hash: CryptoHash;
  readonly timestamp: bigint;
  readonly totalSupply: bigint;
  /** The header's block_ordinal: blocks since genesis, where heights a fast-forward skipped have none. */
  readonly ordinal?: number;
  /** The header's validator proposals (the Stake actions its chunks' previous chunks ran). */
  readonly proposals?: readonly { readonly accountId: string; readonly stake: bigint }[];
  /** What the block's new chunks burnt: with the supplies, what the block minted. */
  readonly balanceBurnt?: bigint;
}

export interface EpochRewardRow extends EpochReward {
  /**
   * The validators' stakes in the info of the epoch after: this epoch's own stakes plus the reward
   * of the epoch before. With it, the next epoch's reward needs no older block.
   */
  readonly nextStakes: ReadonlyMap<string, bigint>;
  /**
   * The epoch info this row's key names (nearcore's EpochId of T + 2 is the hash of T's last block):
   * its validators' stakes, and its stake_change, which also names every proposal of T left out.
   */
  readonly epochInfo: EpochStakes;
}

export interface EpochStakes {
  readonly stakes: ReadonlyMap<string, bigint>;
  readonly stakeChange: ReadonlyMap<string, bigint>;
  /**
   * The info's validator_reward: the reward of the epoch two before, paid by the first block of the
   * one before (the genesis info's: the treasury at zero). `validators` reports it.
   */
  readonly validatorReward: ReadonlyMap<string, bigint>;
}

const ROW_PREFIX = utf8('EPOCH_REWARD');

function encodeRow(r: EpochRewardRow): Uint8Array {
  const entries = (m: ReadonlyMap<string, bigint>) => [...m].map(([k, v]) => [k, v.toString()]);
  return utf8(
    JSON.stringify({
      minted: r.mintedAmount.toString(),
      reward: entries(r.validatorReward),
      next: entries(r.nextStakes),
      info: entries(r.epochInfo.stakes),
      change: entries(r.epochInfo.stakeChange),
    }),
  );
}

function decodeRow(b: Uint8Array): EpochRewardRow {
  const o = JSON.parse(new TextDecoder().decode(b)) as {
    minted: string;
    reward: string[][];
    next: string[][];
    info?: string[][];
    change?: string[][];
  };
  const map = (e: string[][]) => new Map(e.map(([k, v]) => [k!, BigInt(v!)]));
  const validatorReward = map(o.reward);
  const nextStakes = map(o.next);
  // Rows written before proposals were followed: the validators kept their stakes plus rewards.
  const stakes = o.info ? map(o.info) : grownBy(nextStakes, validatorReward);
  const stakeChange = o.change ? map(o.change) : stakes;
  return {
    mintedAmount: BigInt(o.minted),
    validatorReward,
    nextStakes,
    epochInfo: { stakes, stakeChange, validatorReward },
  };
}

function grownBy(
  stakes: ReadonlyMap<string, bigint>,
  reward: ReadonlyMap<string, bigint>,
): Map<string, bigint> {
  return new Map([...stakes].map(([id, s]) => [id, s + (reward.get(id) ?? 0n)]));
}

/**
 * The stakes of the epoch `epochId` names: its row's, or the genesis validators' for the first two
 * epochs (ids zero and the genesis hash) and for any epoch whose row this store never kept.
 */
export function epochStakes(store: Pick<Store, 'get'>, cfg: GenesisConfig, epochId: CryptoHash): EpochStakes {
  const b = store.get(DBCol.BlockMisc, concatBytes(ROW_PREFIX, epochId));
  if (b) return decodeRow(b).epochInfo;
  return genesisEpochStakes(cfg);
}

/**
 * Epoch stakes by epoch id, each row read and decoded once: a row is written with the first block of
 * the epoch before the one it names, so it never changes once a block can name it.
 */
export class EpochStakesReader {
  private readonly cache = new LruCache<string, EpochStakes>(16);

  constructor(
    private readonly store: Pick<Store, 'get'>,
    private readonly cfg: GenesisConfig,
  ) {}

  of(epochId: CryptoHash): EpochStakes {
    const key = toHex(epochId);
    let s = this.cache.get(key);
    if (!s) {
      s = epochStakes(this.store, this.cfg, epochId);
      this.cache.set(key, s);
    }
    return s;
  }
}

/**
 * nearcore's get_epoch_block_producers_ordered: the epoch's block producers, each once, in settlement
 * order. Here the genesis validators (their order and keys) at the epoch's stakes. `next_bp_hash`,
 * `next_bps` and EXPERIMENTAL_validators_ordered all read this list.
 */
export function epochBlockProducers(
  cfg: GenesisConfig,
  stakes: ReadonlyMap<string, bigint>,
): { accountId: string; publicKey: PublicKey; amount: bigint }[] {
  const seen = new Set<string>();
  return cfg.validators
    .filter((v) => !seen.has(v.accountId) && seen.add(v.accountId))
    .map((v) => ({
      accountId: v.accountId,
      publicKey: v.publicKey,
      amount: stakes.get(v.accountId) ?? v.amount,
    }));
}

function genesisEpochStakes(cfg: GenesisConfig): EpochStakes {
  const stakes = new Map<string, bigint>();
  for (const v of cfg.validators) stakes.set(v.accountId, v.amount);
  return { stakes, stakeChange: stakes, validatorReward: genesisValidatorReward(cfg) };
}

/** The genesis epoch info's validator_reward: the treasury at zero. */
export function genesisValidatorReward(cfg: GenesisConfig): Map<string, bigint> {
  return new Map([[cfg.protocolTreasuryAccount, 0n]]);
}

/**
 * Rewards and stakes of this chain's epochs, by 0-based index. The genesis validators are the
 * validators of every epoch, each producing every block and chunk and endorsing every chunk (as the
 * `validators` view reports), so none is kicked out and each is fully online. Their stakes follow
 * nearcore's apply_epoch_update_to_proposals: the epoch info of T + 2 takes each one's last proposal
 * of T, or its stake in T + 1, plus its reward for T. Anyone else's proposal is left out with a stake
 * change of zero, as one under the seat price is, so its stake is returned when T + 1 starts. Each
 * epoch's result is kept in the store under its last block's hash, as nearcore keeps it in the epoch
 * info named by that hash, so stakes carry over once old blocks are collected.
 */
export class EpochRewards {
  private readonly calc: RewardCalculator;
  private readonly epochConfig: RewardEpochConfig;
  /** Rows worked out or read lately (every row is also in the store once its block is written). */
  private readonly known = new LruCache<string, EpochRewardRow>(64);
  private unsaved: [CryptoHash, EpochRewardRow][] = [];

  constructor(
    private readonly cfg: GenesisConfig,
    private readonly store: Pick<Store, 'get'>,
    private readonly numShards: number,
    /** The canonical block at a height; undefined once collected. */
    private readonly blockAt: (height: number) => RewardBlockInfo | undefined,
    /**
     * The store has kept a row for every epoch whose next epoch's first block it holds, ever since
     * this chain paid rewards (a producer's store; a follower keeps none). A row missing there is an
     * epoch that ended under a build that paid none.
     */
    private readonly rowsKept = false,
  ) {
    this.calc = rewardCalculatorOf(cfg);
    this.epochConfig = rewardEpochConfig(cfg);
  }

  private genesisStakes(): Map<string, bigint> {
    return new Map(genesisEpochStakes(this.cfg).stakes);
  }

  private lastHeight(index: number): number {
    return this.cfg.genesisHeight + (index + 1) * this.cfg.epochLength;
  }

  private lookup(hash: CryptoHash): EpochRewardRow | undefined {
    const key = toHex(hash);
    let row = this.known.get(key);
    if (!row) {
      const b = this.store.get(DBCol.BlockMisc, concatBytes(ROW_PREFIX, hash));
      if (b) {
        row = decodeRow(b);
        this.known.set(key, row);
      }
    }
    return row;
  }

  /** The reward of the finished epoch `index` (its last block and the one before it are stored). */
  of(index: number): EpochRewardRow {
    const own = this.blockAt(this.lastHeight(index));
    if (!own) throw new Error(`epoch ${index}: its last block is not stored`);
    const known = this.lookup(own.hash) ?? this.unpaid(index, own.hash);
    if (known) return known;
    // Back to the latest epoch already worked out, or to the oldest whose blocks are still stored.
    let start = index;
    let base: EpochRewardRow | undefined;
    while (start > 0) {
      const prevLast = this.blockAt(this.lastHeight(start - 1));
      if (!prevLast) break;
      base = this.lookup(prevLast.hash) ?? this.unpaid(start - 1, prevLast.hash);
      if (base || !this.blockAt(this.lastHeight(start - 2))) break;
      start--;
    }
    let row = base;
    for (let i = start; i <= index; i++) row = this.compute(i, row);
    return row!;
  }

  /**
   * The row of an epoch that ended under a build that paid no reward (see `rowsKept`): what the
   * blocks after it committed to, the genesis stakes with nothing minted or paid. A reward worked out
   * now would change the epoch info those blocks already named in `next_bp_hash`, and pay nobody.
   */
  private unpaid(index: number, lastHash: CryptoHash): EpochRewardRow | undefined {
    if (!this.rowsKept || !this.blockAt(this.lastHeight(index) + 1)) return undefined;
    return this.unpaidRow(lastHash);
  }

  private unpaidRow(lastHash: CryptoHash): EpochRewardRow {
    const info = genesisEpochStakes(this.cfg);
    const row: EpochRewardRow = {
      validatorReward: info.validatorReward,
      mintedAmount: 0n,
      nextStakes: info.stakes,
      epochInfo: info,
    };
    this.known.set(toHex(lastHash), row);
    this.unsaved.push([lastHash, row]);
    return row;
  }

  /** The stakes of the epoch `epochId` names, including a row worked out for the block in the making. */
  stakesOf(epochId: CryptoHash): EpochStakes {
    return this.lookup(epochId)?.epochInfo ?? genesisEpochStakes(this.cfg);
  }

  /** The last proposal of each account in the blocks of epoch `index` (EpochInfoAggregator). */
  private proposalsOf(index: number): Map<string, bigint> {
    const out = new Map<string, bigint>();
    const start = this.cfg.genesisHeight + 1 + index * this.cfg.epochLength;
    for (let h = start; h <= this.lastHeight(index); h++)
      for (const p of this.blockAt(h)?.proposals ?? []) out.set(p.accountId, p.stake);
    return out;
  }

  /** The stakes of epoch info `index`: the genesis validators' for the first two epochs. */
  private infoOf(index: number): EpochStakes {
    if (index < 2 || !this.blockAt(this.lastHeight(index - 2))) return genesisEpochStakes(this.cfg);
    return this.of(index - 2).epochInfo;
  }

  /**
   * nearcore's compute_stake_return_info once epoch `index` has ended: each account named in the
   * stake changes of the epoch infos of `index`, `index + 1` and `index + 2`, with the largest stake
   * it holds in them. Locked balance above it (and above the account's last proposal) is returned.
   */
  stakeReturnInfo(index: number): Map<string, bigint> {
    const out = new Map<string, bigint>();
    for (const i of [index, index + 1, index + 2])
      for (const [id, s] of this.infoOf(i).stakeChange) {
        const was = out.get(id);
        if (was === undefined || s > was) out.set(id, s);
      }
    return out;
  }

  /** Drops the epochs worked out since the last `save`, for a user that keeps no rows (a follower). */
  discardUnsaved(): void {
    this.unsaved = [];
  }

  /** Writes the epochs worked out since the last call, to be committed with the block. */
  save(update: StoreUpdate): void {
    for (const [hash, row] of this.unsaved)
      update.put(DBCol.BlockMisc, concatBytes(ROW_PREFIX, hash), encodeRow(row));
    this.unsaved = [];
  }

  /**
   * `prev`: the epoch before's row; absent for the first epoch, or when its blocks were collected
   * before any row was kept (then the genesis stakes stand in, which only shifts the split between
   * several validators).
   */
  private compute(index: number, prev: EpochRewardRow | undefined): EpochRewardRow {
    const stakes = index > 0 && prev ? new Map(prev.nextStakes) : this.genesisStakes();
    // finalize_epoch: the duration runs from the last block of the epoch before (genesis for the
    // first) to this epoch's last block, and the supply is that last block's.
    const last = this.blockAt(this.lastHeight(index));
    const before = this.blockAt(this.lastHeight(index - 1));
    if (!last || !before) throw new Error(`epoch ${index}: its last blocks are not stored`);
    // Every height of the epoch expects a block (EpochInfoAggregator::update_tail counts the heights
    // a block skipped as missed); chunks and endorsements are expected of the blocks there are.
    const heights = BigInt(this.cfg.epochLength);
    const blocks =
      last.ordinal !== undefined && before.ordinal !== undefined
        ? BigInt(last.ordinal - before.ordinal)
        : heights;
    const chunks = blocks * BigInt(this.numShards);
    const full = (count: bigint): ValidatorStats => ({ produced: count, expected: count });
    const stats = new Map<string, BlockChunkValidatorStats>();
    for (const id of stakes.keys())
      stats.set(id, {
        blockStats: { produced: blocks, expected: heights },
        chunkStats: { production: full(chunks), endorsement: full(chunks) },
      });
    const r = calculateReward(
      this.calc,
      stats,
      stakes,
      last.totalSupply,
      last.timestamp - before.timestamp,
      this.epochConfig.onlineThresholds,
      this.epochConfig.maxInflationRate,
    );
    // Without rows, the chain itself tells an epoch a pre-reward build ended: its next block minted
    // nothing where a reward was due.
    const next = this.blockAt(this.lastHeight(index) + 1);
    if (
      !this.rowsKept &&
      r.mintedAmount > 0n &&
      next?.balanceBurnt !== undefined &&
      next.totalSupply - last.totalSupply + next.balanceBurnt === 0n
    )
      return this.unpaidRow(last.hash);
    // The epoch info of T + 1 was made when T − 1 ended; T + 2's is made here.
    const nextStakes = index > 0 && prev ? new Map(prev.epochInfo.stakes) : new Map(stakes);
    const proposals = this.proposalsOf(index);
    const infoStakes = new Map<string, bigint>();
    const stakeChange = new Map<string, bigint>();
    for (const id of proposals.keys()) if (!nextStakes.has(id)) stakeChange.set(id, 0n);
    for (const [id, s] of nextStakes) {
      const stake = (proposals.get(id) ?? s) + (r.validatorReward.get(id) ?? 0n);
      infoStakes.set(id, stake);
      stakeChange.set(id, stake);
    }
    const row = {
      ...r,
      nextStakes,
      epochInfo: { stakes: infoStakes, stakeChange, validatorReward: r.validatorReward },
    };
    this.known.set(toHex(last.hash), row);
    this.unsaved.push([last.hash, row]);
    return row;
  }
}

/** What the first block of an epoch does with the ended epoch's reward. */
export interface EpochStartReward {
  /** Added to the block's total supply (nearcore's minted_amount). */
  readonly mintedAmount: bigint;
  /** Passed to every chunk's apply (nearcore's validator_accounts_update), with its chunk's last proposals. */
  readonly validatorAccountsUpdate: Omit<ValidatorAccountsUpdate, 'lastProposals'>;
}

/**
 * For the block at `height`: its epoch's start pays the epoch before's reward; the first block after
 * genesis pays the genesis epoch info's, which holds only the treasury at zero. Other heights: none.
 */
export function epochStartReward(
  rewards: EpochRewards,
  cfg: GenesisConfig,
  height: number,
): EpochStartReward | undefined {
  const epoch = epochOf(height, cfg.genesisHeight, cfg.epochLength);
  if (height !== epoch.startHeight) return undefined;
  const reward: EpochReward =
    epoch.index > 0
      ? rewards.of(epoch.index - 1)
      : { validatorReward: genesisValidatorReward(cfg), mintedAmount: 0n };
  return {
    mintedAmount: reward.mintedAmount,
    validatorAccountsUpdate: {
      // For the first block the three epoch infos are the genesis one.
      stakeInfo:
        epoch.index > 0
          ? rewards.stakeReturnInfo(epoch.index - 1)
          : new Map(genesisEpochStakes(cfg).stakeChange),
      validatorRewards: reward.validatorReward,
      protocolTreasuryAccountId: cfg.protocolTreasuryAccount,
    },
  };
}
