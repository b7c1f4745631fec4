// What publishing reads from a chain: a running node's `Chain` and a stopped home's `ChainReader`
// both have these parts, so the same code serves /v0 on a live node and exports a stopped one.
import type { ChainStore, Genesis, ShardLayout } from '@nearlite/chain';
import type { Store } from '@nearlite/store';

export interface StreamChain {
  readonly store: Store;
  readonly chainStore: ChainStore;
  /** Its genesis' config (publishing needs no records). */
  readonly genesis: Pick<Genesis, 'config'>;
  readonly layout: ShardLayout;
}
