// What the validator views of a followed chain read besides the genesis: the stakes of an epoch
// (epoch_stakes.ts), the proposals of its blocks, and whether the chain's blocks name these
// validators at all (a nearlite chain's do; a real network's do not, and its views come from the
// upstream RPC, as NEAR's read-rpc takes them).
import {
  computeBpHash,
  EpochProposals,
  type EpochValidatorFacts,
  epochBlockProducers,
  epochOf,
  type Genesis,
} from '@nearlite/chain';
import { base58Encode, parsePublicKey } from '@nearlite/primitives';
import { FollowerEpochStakes, type HeightStakes } from './epoch_stakes.js';
import type { HeaderFactsCache } from './header_facts.js';
import type { HistoryReader } from './history_reader.js';

interface ValidatorStakeJson {
  readonly account_id: string;
  readonly public_key: string;
  readonly stake: string;
}

export class FollowerValidatorFacts {
  private readonly stakes: FollowerEpochStakes;
  private readonly proposals = new EpochProposals();

  constructor(
    private readonly genesis: Genesis,
    numShards: number,
    private readonly history: HistoryReader,
    private readonly headers: HeaderFactsCache,
  ) {
    this.stakes = new FollowerEpochStakes(genesis, numShards, history);
  }

  stakesAt(height: number): Promise<HeightStakes> {
    return this.stakes.stakesAt(height);
  }

  /**
   * Whether a block at `height` whose header holds `nextBpHash` names this genesis' validators at
   * the stakes worked out here, as every block of a nearlite chain does.
   */
  async areGenesisValidators(height: number, nextBpHash: string): Promise<boolean> {
    const { nextStakes } = await this.stakes.stakesAt(height);
    return nextBpHash === base58Encode(computeBpHash(epochBlockProducers(this.genesis.config, nextStakes)));
  }

  /** What the validators view of the epoch holding `height` shows, counted up to `height`. */
  async factsAt(height: number): Promise<EpochValidatorFacts> {
    const proposals = await this.proposals.upToAsync(this.genesis.config, height, async (h) => {
      const b = await this.history.blockAt(h);
      if (!b) return undefined;
      const header = (JSON.parse(b.json) as { header: { validator_proposals?: ValidatorStakeJson[] } })
        .header;
      return (header.validator_proposals ?? []).map((p) => ({
        accountId: p.account_id,
        publicKey: parsePublicKey(p.public_key),
        stake: BigInt(p.stake),
      }));
    });
    const cfg = this.genesis.config;
    const ordinalAt = async (h: number) => {
      const b = await this.history.blockAt(h);
      return b && this.headers.of(b).ordinal;
    };
    // The epoch's blocks, by ordinals: a sandbox fast-forward leaves heights without one.
    const [own, before] = await Promise.all([
      ordinalAt(height),
      ordinalAt(epochOf(height, cfg.genesisHeight, cfg.epochLength).startHeight - 1),
    ]);
    return {
      ...(await this.stakes.stakesAt(height)),
      proposals,
      ...(own !== undefined && before !== undefined ? { blocks: own - before } : {}),
    };
  }
}
