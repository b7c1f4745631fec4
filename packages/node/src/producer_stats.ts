// What a producer's `stats` line reads of its chain: the head, the genesis validators (every
// epoch's here), and the gas each block's new chunks used, as nearcore's InfoHelper sums it.
import type { BlockHeader, ChainHandle } from '@nearlite/chain';
import { base58Encode } from '@nearlite/primitives';
import type { Logger } from './log.js';
import { StatsLog } from './stats_log.js';

/** The gas a block's new chunks report (each new chunk header's `prev_gas_used`). */
export function newChunksGasUsed(chain: ChainHandle, header: BlockHeader): bigint {
  let gas = 0n;
  for (const c of chain.chainStore.blockChunkHeaders(header.hash) ?? [])
    if (c.heightIncluded === header.lite.height) gas += c.inner.prevGasUsed;
  return gas;
}

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
    logger.stats ?? ((line) => logger.info(`stats: ${line}`)),
    periodMs,
  );
}
