// `run --lake-out`: publishes each block to a Lake sink once it is final, so a running producer feeds
// a Lake bucket (or directory) continuously. Resumes after the last block the sink holds whole.
// A failed write is reported and retried with the next block; no height is skipped, and a height GC
// has taken before it was published is reported with every block rather than stepped over.

import { buildHeld, COLLECTED } from './held_build.js';
import { type LakeSink, writeLakeBlock } from './lake_sink.js';
import { finalHeightOf, firstHeightOf, type LiveStreamChain } from './live_chain.js';
import { StreamerMessageBuilder } from './streamer_message.js';

export interface LakePublisherOptions {
  readonly onPublished?: (height: number) => void;
  readonly onError?: (err: unknown, height: number) => void;
}

export class LakePublisher {
  private readonly builder: StreamerMessageBuilder;
  private next: number | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly onBlock = () => this.schedule();

  private constructor(
    private readonly chain: LiveStreamChain,
    readonly sink: LakeSink,
    private readonly o: LakePublisherOptions,
  ) {
    this.builder = new StreamerMessageBuilder(chain);
  }

  static async start(
    chain: LiveStreamChain,
    sink: LakeSink,
    o: LakePublisherOptions = {},
  ): Promise<LakePublisher> {
    const p = new LakePublisher(chain, sink, o);
    const resume = await sink.resumeHeight();
    // A new bucket starts at the first block kept; one with blocks goes on right after its last, even
    // where GC has taken that height since: every block is then reported, never a gap left.
    p.next = resume ?? firstHeightOf(chain);
    chain.events.on('block', p.onBlock);
    p.schedule();
    return p;
  }

  /** The next height to publish. */
  get nextHeight(): number | null {
    return this.next;
  }

  /** Resolves once the writes scheduled so far are done (or have failed and been reported). */
  idle(): Promise<void> {
    return this.running;
  }

  private schedule(): void {
    this.running = this.running
      .then(() => this.pump())
      .catch((err: unknown) => this.o.onError?.(err, this.next ?? -1));
  }

  private async pump(): Promise<void> {
    while (!this.stopped && this.next !== null && this.next <= finalHeightOf(this.chain)) {
      const h = this.next;
      try {
        const built = await buildHeld(this.chain, this.builder, h);
        // The bucket would have a gap: reported with every block, never skipped.
        if (built === COLLECTED) throw new Error(`block ${h} was garbage collected before it was published`);
        if (built) await writeLakeBlock(this.sink, built);
      } catch (err) {
        this.o.onError?.(err, h);
        return;
      }
      this.next = h + 1;
      this.o.onPublished?.(h);
    }
  }

  /** Stops following the chain after writing every block that is final by now. */
  async stop(): Promise<void> {
    this.chain.events.off('block', this.onBlock);
    this.schedule();
    await this.running;
    this.stopped = true;
    await this.sink.close();
  }
}
