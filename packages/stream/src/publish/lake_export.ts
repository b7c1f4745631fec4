// `nearlite lake-export`: the kept final blocks of a stopped node's home, written in the Lake layout.
import type { StreamChain } from './chain_view.js';
import { type LakeSink, writeLakeBlock } from './lake_sink.js';
import { StreamerMessageBuilder } from './streamer_message.js';

export interface LakeExportRange {
  /** First height (default: the first kept block). */
  readonly from?: number;
  /** Last height (default: the last final block). */
  readonly to?: number;
}

export interface LakeExportResult {
  readonly from: number;
  readonly to: number;
  /** Heights written (a height without block has no files). */
  readonly blocks: number;
}

/** The last final block of a stored chain, read from its head header. */
export function storedFinalHeight(chain: StreamChain): number | null {
  const head = chain.chainStore.head();
  const header = head && chain.chainStore.blockHeader(head.hash);
  if (!header) return null;
  const final = chain.chainStore.blockHeader(header.rest.lastFinalBlock);
  return final ? final.lite.height : chain.genesis.config.genesisHeight;
}

export class LakeExportError extends Error {
  override readonly name = 'LakeExportError';
}

export async function exportLake(
  chain: StreamChain,
  sink: LakeSink,
  range: LakeExportRange = {},
  onBlock?: (height: number) => void,
): Promise<LakeExportResult> {
  const first = chain.chainStore.tail() ?? chain.genesis.config.genesisHeight;
  const final = storedFinalHeight(chain);
  if (final === null) throw new LakeExportError('the store holds no chain');
  const from = range.from ?? first;
  const to = range.to ?? final;
  if (from < first) throw new LakeExportError(`--from ${from} is below the first kept block ${first}`);
  if (to > final) throw new LakeExportError(`--to ${to} is above the last final block ${final}`);
  if (from > to) throw new LakeExportError(`--from ${from} is above --to ${to}`);
  const builder = new StreamerMessageBuilder(chain);
  let blocks = 0;
  for (let h = from; h <= to; h++) {
    const built = await builder.build(h);
    if (!built) continue;
    await writeLakeBlock(sink, built);
    blocks++;
    onBlock?.(h);
  }
  return { from, to, blocks };
}
