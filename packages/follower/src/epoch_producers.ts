// The block producers a followed NEAR network's `status` lists. nearcore's status names the head
// epoch's block producers in order (get_epoch_block_producers_ordered), which is what
// EXPERIMENTAL_validators_ordered answers for a block of that epoch. The stream carries none of them,
// so they are the upstream's answer for the head block, asked once per epoch: `status` is a health
// probe, so it waits for that answer only briefly, and an upstream that failed is asked again only
// after a pause.
import { isJsonObject, isValidAccountId } from '@nearlite/primitives';
import type { UpstreamRpc } from './upstream.js';

/** How long a `status` waits for the upstream's first answer of an epoch before answering without it. */
const STATUS_WAIT_MS = 2_000;
/** How long after a failed ask the upstream is asked again. */
const RETRY_AFTER_MS = 10_000;

export class EpochProducers {
  private epochId: string | null = null;
  private known: readonly string[] | null = null;
  private asking: Promise<readonly string[] | null> | null = null;
  private failedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly upstream: UpstreamRpc | null,
    private readonly waitMs = STATUS_WAIT_MS,
    private readonly retryAfterMs = RETRY_AFTER_MS,
  ) {}

  /** The block producers of epoch `epochId`, as the upstream names them at `blockHash` (base58). */
  async of(epochId: string, blockHash: string): Promise<readonly string[]> {
    if (!this.upstream) return [];
    if (epochId !== this.epochId) {
      this.epochId = epochId;
      this.known = null;
      this.asking = null;
      this.failedAt = Number.NEGATIVE_INFINITY;
    }
    if (this.known) return this.known;
    if (!this.asking) {
      if (Date.now() - this.failedAt < this.retryAfterMs) return [];
      const asking = this.ask(this.upstream, blockHash);
      this.asking = asking;
      void asking.then((names) => {
        // An answer for an epoch the head has left since is dropped.
        if (this.asking !== asking) return;
        this.asking = null;
        if (names) this.known = names;
        else this.failedAt = Date.now();
      });
    }
    return (await withDeadline(this.asking, this.waitMs)) ?? [];
  }

  private async ask(upstream: UpstreamRpc, blockHash: string): Promise<readonly string[] | null> {
    try {
      const answer = await upstream.call('EXPERIMENTAL_validators_ordered', { block_id: blockHash });
      const list = JSON.parse(answer.json) as unknown;
      if (!Array.isArray(list)) return null;
      const names: string[] = [];
      for (const v of list) {
        const id = isJsonObject(v) ? v.account_id : undefined;
        if (typeof id !== 'string' || !isValidAccountId(id)) return null;
        names.push(id);
      }
      return names;
    } catch {
      return null;
    }
  }
}

/** What `p` settles to within `ms`, or null after it. */
async function withDeadline<T>(p: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}
