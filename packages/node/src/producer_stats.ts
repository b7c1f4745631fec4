// What a producer's `stats` line reads of its chain: the head and the genesis validators (every
// epoch's here); the blocks and their gas come from the chain's block events.
import type { ChainHandle } from '@nearlite/chain';
import { base58Encode } from '@nearlite/primitives';
import type { Logger } from './log.js';
import { StatsLog, statsWriter } from './stats_log.js';

export function producerStats(chain: ChainHandle, periodMs: number, logger: Logger): StatsLog {
  const count = new Set(chain.genesis.config.validators.map((v) => v.accountId)).size;
  return new StatsLog(
    {
      head: () => {
        const head = chain.head();
        return { height: head.height, hash: base58Encode(head.hash) };
      },
      validators: () => ({ isValidator: chain.canProduce, count }),
    },
    statsWriter(logger),
    periodMs,
  );
}
