// What a followed NEAR network's `status` says of the head's epoch that its stream does not carry,
// from the upstream, asked once per epoch at the head block:
// - its block producers in order, which nearcore's status lists (get_epoch_block_producers_ordered,
//   what EXPERIMENTAL_validators_ordered answers);
// - where it began, when the history begins inside it (`validators`' epoch_start_height);
// - the protocol version it runs, which a block names only as the version its producer runs
//   (EXPERIMENTAL_protocol_config's protocol_version).
// `status` is a health probe, so it waits for an answer only briefly, and an upstream that failed is
// asked again only after a pause.
import { isJsonObject, isValidAccountId } from '@nearlite/primitives';
import type { UpstreamRpc } from './upstream.js';

/** How long a `status` waits for the upstream's first answer of an epoch before answering without it. */
const STATUS_WAIT_MS = 2_000;
/** How long after a failed ask the upstream is asked again. */
const RETRY_AFTER_MS = 10_000;

/** One fact of the head's epoch, asked of the upstream at a block of it; null for no usable answer. */
export type AskUpstream<T> = (upstream: UpstreamRpc, blockHash: string) => Promise<T | null>;

/** A fact of the head's epoch from the upstream, kept for the epoch. */
export class UpstreamEpochFact<T> {
  private epochId: string | null = null;
  private known: T | null = null;
  private asking: Promise<T | null> | null = null;
  private failedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly upstream: UpstreamRpc | null,
    private readonly askOf: AskUpstream<T>,
    private readonly waitMs = STATUS_WAIT_MS,
    private readonly retryAfterMs = RETRY_AFTER_MS,
  ) {}

  /** The fact for epoch `epochId`, as the upstream gives it at `blockHash` (base58); null while unknown. */
  async of(epochId: string, blockHash: string): Promise<T | null> {
    if (!this.upstream) return null;
    if (epochId !== this.epochId) {
      this.epochId = epochId;
      this.known = null;
      this.asking = null;
      this.failedAt = Number.NEGATIVE_INFINITY;
    }
    if (this.known !== null) return this.known;
    if (!this.asking) {
      if (Date.now() - this.failedAt < this.retryAfterMs) return null;
      const asking = this.askOf(this.upstream, blockHash).catch(() => null);
      this.asking = asking;
      void asking.then((fact) => {
        // An answer for an epoch the head has left since is dropped.
        if (this.asking !== asking) return;
        this.asking = null;
        if (fact !== null) this.known = fact;
        else this.failedAt = Date.now();
      });
    }
    return withDeadline(this.asking, this.waitMs);
  }
}

/** What a followed NEAR network's `status` takes from the upstream of the head's epoch. */
export interface UpstreamEpoch {
  readonly producers: readonly string[] | null;
  readonly startHeight: number | null;
  readonly protocolVersion: number | null;
}

/** The three facts of the head's epoch, each asked once an epoch, all at once. */
export class UpstreamEpochFacts {
  private readonly producers: UpstreamEpochFact<readonly string[]>;
  private readonly startHeight: UpstreamEpochFact<number>;
  private readonly protocolVersion: UpstreamEpochFact<number>;

  constructor(upstream: UpstreamRpc | null) {
    this.producers = new UpstreamEpochFact(upstream, askBlockProducers);
    this.startHeight = new UpstreamEpochFact(upstream, askEpochStart);
    this.protocolVersion = new UpstreamEpochFact(upstream, askEpochProtocolVersion);
  }

  /** `withStart`: where the epoch began is asked only where the history cannot say. */
  async of(epochId: string, blockHash: string, withStart: boolean): Promise<UpstreamEpoch> {
    const [producers, startHeight, protocolVersion] = await Promise.all([
      this.producers.of(epochId, blockHash),
      withStart ? this.startHeight.of(epochId, blockHash) : null,
      this.protocolVersion.of(epochId, blockHash),
    ]);
    return { producers, startHeight, protocolVersion };
  }
}

/** The block producers of the block's epoch, in order: EXPERIMENTAL_validators_ordered's account ids. */
export const askBlockProducers: AskUpstream<readonly string[]> = async (upstream, blockHash) => {
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
};

/** Where the block's epoch began: `validators`' epoch_start_height. */
export const askEpochStart: AskUpstream<number> = async (upstream, blockHash) => {
  const answer = await upstream.call('validators', { block_id: blockHash });
  const view = JSON.parse(answer.json) as unknown;
  return wholeNumber(isJsonObject(view) ? view.epoch_start_height : undefined);
};

/** The protocol version of the block's epoch: EXPERIMENTAL_protocol_config's protocol_version. */
export const askEpochProtocolVersion: AskUpstream<number> = async (upstream, blockHash) => {
  const answer = await upstream.call('EXPERIMENTAL_protocol_config', { block_id: blockHash });
  const config = JSON.parse(answer.json) as unknown;
  const version = isJsonObject(config) ? config.protocol_version : undefined;
  return wholeNumber(version);
};

function wholeNumber(v: unknown): number | null {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;
}

/** What `p` settles to within `ms`, or null after it. */
async function withDeadline<T>(p: Promise<T | null>, ms: number): Promise<T | null> {
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
