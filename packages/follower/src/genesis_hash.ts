// The genesis hash `status` names, where the history does not hold the genesis block: a stream need
// not carry it, and a history that begins later never sees it.
import { isJsonObject } from '@nearlite/primitives';
import type { HeaderFacts } from './header_facts.js';
import { followsGenesis } from './state_from.js';
import type { UpstreamRpc } from './upstream.js';

/** The genesis hash the first held block names as its parent, when its parent is the genesis block. */
export function genesisHashFromChild(first: HeaderFacts | undefined, genesisHeight: number): string | null {
  return first && first.height > genesisHeight && followsGenesis(genesisHeight, first)
    ? first.prevHash
    : null;
}

/** How long `status` may wait for the upstream's, and how often it is asked again meanwhile. */
const ASK_TIMEOUT_MS = 5_000;
const ASK_EVERY_MS = 60_000;

/** The upstream's `status.genesis_hash`, asked once it answers; null while it cannot be had. */
export class UpstreamGenesisHash {
  private known: string | null = null;
  private askedAt = -Infinity;
  private asking: Promise<string | null> | null = null;
  private readonly upstream: UpstreamRpc | null;

  constructor(upstream: UpstreamRpc | null) {
    // Its own client, with a short deadline: `status` does not wait a minute on a silent upstream.
    this.upstream = upstream?.withTimeout(ASK_TIMEOUT_MS) ?? null;
  }

  async get(): Promise<string | null> {
    if (this.known !== null || this.upstream === null) return this.known;
    // Calls that come while it is asked wait for the same answer.
    if (this.asking) return this.asking;
    if (Date.now() - this.askedAt < ASK_EVERY_MS) return null;
    this.askedAt = Date.now();
    this.asking = this.ask(this.upstream).finally(() => {
      this.asking = null;
    });
    return this.asking;
  }

  private async ask(upstream: UpstreamRpc): Promise<string | null> {
    try {
      const status = JSON.parse((await upstream.call('status', [])).json) as unknown;
      const hash = isJsonObject(status) ? status.genesis_hash : undefined;
      if (typeof hash === 'string') this.known = hash;
    } catch {
      // Asked again a while later: an upstream that is down now may answer then.
    }
    return this.known;
  }
}
