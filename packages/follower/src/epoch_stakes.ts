// The validators' stakes of a followed nearlite chain, worked out from its blocks as its producer
// works them out (chain/src/epoch_rewards.ts): the stream carries no epoch info, but on such a
// chain every epoch has the genesis validators, and their stakes follow from each epoch's duration,
// last supply and proposals. A history that does not reach back to the chain's first epoch (a
// follower started later, or whose blocks were collected before it worked them out) cannot give
// them: the genesis stakes stand in, and the validator views come from the upstream RPC once the
// head's next_bp_hash says they are not the chain's (validator_facts.ts).
import {
  type EpochRewardRow,
  EpochRewards,
  epochOf,
  type Genesis,
  genesisValidatorReward,
  type RewardBlockInfo,
} from '@nearlite/chain';
import { base58Decode } from '@nearlite/primitives';
import type { HistoryReader } from './history_reader.js';

export interface HeightStakes {
  /** The stakes of the epoch holding the height. */
  readonly stakes: ReadonlyMap<string, bigint>;
  /** The stakes of the epoch after it. */
  readonly nextStakes: ReadonlyMap<string, bigint>;
  /** The reward its epoch info holds (the chain's EpochStakes.validatorReward). */
  readonly rewards: ReadonlyMap<string, bigint>;
  /** False where the genesis stakes only stand in for stakes this history cannot give. */
  readonly known: boolean;
}

interface HeaderJson {
  readonly hash: string;
  readonly timestamp_nanosec?: string;
  readonly timestamp?: number | string;
  readonly total_supply: string;
  readonly block_ordinal?: number | null;
  readonly validator_proposals?: readonly { account_id: string; stake: string }[];
}

export class FollowerEpochStakes {
  private readonly blocks = new Map<number, RewardBlockInfo>();
  private readonly rewards: EpochRewards;
  /** Rows worked out so far, by epoch index: each one's epoch info is that of the epoch two on. */
  private readonly rows: EpochRewardRow[] = [];
  /** The history lacks a block the next epoch's row needs and always will (below its first height). */
  private unreachable = false;
  private working: Promise<unknown> = Promise.resolve();
  private readonly genesisStakes: HeightStakes;

  constructor(
    private readonly genesis: Genesis,
    numShards: number,
    private readonly history: HistoryReader,
  ) {
    const stakes = new Map(genesis.config.validators.map((v) => [v.accountId, v.amount]));
    const rewards = genesisValidatorReward(genesis.config);
    this.genesisStakes = { stakes, nextStakes: stakes, rewards, known: false };
    this.rewards = new EpochRewards(genesis.config, { get: () => undefined }, numShards, (h) =>
      this.blocks.get(h),
    );
  }

  /**
   * The stakes at `height` as the producer keeps them; the genesis ones where this history cannot
   * give them, as for a real network's stream.
   */
  stakesAt(height: number): Promise<HeightStakes> {
    const index = this.indexOf(height);
    // Worked out already, or never to be: no need to wait for the worker.
    if (this.rows.length >= index || this.unreachable) return Promise.resolve(this.answer(index));
    // One worker at a time: rows are worked out in order, and each once.
    const next = this.working.then(() => this.work(index));
    this.working = next.catch(() => undefined);
    return next;
  }

  private indexOf(height: number): number {
    const cfg = this.genesis.config;
    return epochOf(height, cfg.genesisHeight, cfg.epochLength).index;
  }

  private answer(index: number): HeightStakes {
    if (this.rows.length < index) return { ...this.genesisStakes, known: index < 2 };
    const infoOf = (e: number) => (e < 2 ? this.genesisStakes.stakes : this.rows[e - 2]!.epochInfo.stakes);
    const rewards = index < 2 ? this.genesisStakes.rewards : this.rows[index - 2]!.validatorReward;
    return { stakes: infoOf(index), nextStakes: infoOf(index + 1), rewards, known: true };
  }

  private async work(index: number): Promise<HeightStakes> {
    const cfg = this.genesis.config;
    while (this.rows.length < index && !this.unreachable) {
      const i = this.rows.length;
      if (!(await this.load(i))) {
        const first = this.history.firstHeight();
        this.unreachable = first === null || first > cfg.genesisHeight + 1 + i * cfg.epochLength;
        break;
      }
      this.rows.push(this.rewards.of(i));
      this.rewards.discardUnsaved();
      // Only the epoch's last block is read again (the next epoch's duration starts there).
      const last = cfg.genesisHeight + (i + 1) * cfg.epochLength;
      for (const h of this.blocks.keys()) if (h < last) this.blocks.delete(h);
    }
    return this.answer(index);
  }

  /**
   * Reads the blocks of epoch `i` (and the block before it); false if one is not in the history.
   * A height inside the epoch with no block in a history that holds it was skipped (a sandbox
   * fast-forward); an epoch's last height always has its block.
   */
  private async load(i: number): Promise<boolean> {
    const cfg = this.genesis.config;
    const from = cfg.genesisHeight + i * cfg.epochLength;
    const to = cfg.genesisHeight + (i + 1) * cfg.epochLength;
    // The next epoch's first block too, where the history has it: what it minted says whether the
    // epoch's reward was paid.
    for (let h = from; h <= to + 1; h++) {
      if (this.blocks.has(h)) continue;
      const b = await this.history.blockAt(h);
      if (!b && h === cfg.genesisHeight) {
        // A stream need not carry the genesis block: its time and supply are the genesis config's.
        this.blocks.set(h, {
          hash: new Uint8Array(32),
          timestamp: cfg.genesisTimeNs,
          totalSupply: cfg.totalSupply,
          ordinal: 1,
        });
        continue;
      }
      if (!b) {
        if (h === to + 1) continue;
        const first = this.history.firstHeight();
        if (h === from || h === to || first === null || h < first) return false;
        continue;
      }
      const view = JSON.parse(b.json) as {
        header: HeaderJson;
        chunks?: { balance_burnt: string; height_included: number }[];
      };
      const header = view.header;
      this.blocks.set(h, {
        hash: base58Decode(header.hash),
        timestamp: BigInt(String(header.timestamp_nanosec ?? header.timestamp)),
        totalSupply: BigInt(header.total_supply),
        ...(typeof header.block_ordinal === 'number' ? { ordinal: header.block_ordinal } : {}),
        proposals: (header.validator_proposals ?? []).map((p) => ({
          accountId: p.account_id,
          stake: BigInt(p.stake),
        })),
        ...(view.chunks
          ? {
              balanceBurnt: view.chunks
                .filter((c) => c.height_included === h)
                .reduce((n, c) => n + BigInt(c.balance_burnt), 0n),
            }
          : {}),
      });
    }
    return true;
  }
}
