// A running chain as publishing sees it: the stored parts, the head, and an event per new block.
import type { BlockHeader, Tip } from '@nearlite/chain';
import type { StreamChain } from './chain_view.js';

export interface LiveStreamChain extends StreamChain {
  head(): Tip;
  headHeader(): BlockHeader;
  /**
   * Holds a height's block from GC while its message is built (the chain's `StatePins`); null while
   * GC is writing that height away.
   */
  readonly statePins: { hold(height: number): (() => void) | null };
  readonly events: {
    on(event: 'block', listener: (e: { readonly header: BlockHeader }) => void): unknown;
    off(event: 'block', listener: (e: { readonly header: BlockHeader }) => void): unknown;
  };
}

/** The height of the head's last final block (genesis until one is final). */
export function finalHeightOf(chain: LiveStreamChain): number {
  const head = chain.headHeader();
  const final = chain.chainStore.blockHeader(head.rest.lastFinalBlock);
  return final ? final.lite.height : chain.genesis.config.genesisHeight;
}

/** The lowest height whose block is kept. */
export function firstHeightOf(chain: StreamChain): number {
  return chain.chainStore.tail() ?? chain.genesis.config.genesisHeight;
}
