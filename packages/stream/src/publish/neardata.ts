// neardata's `/v0` semantics over a running chain (fastnear/neardata-server `api.rs`): a height with
// no block is `null`; below the first kept block, beyond the 10^15 sanity bound, or more than 10
// blocks ahead is a 404 with neardata's `{error, type}`; a height a few blocks ahead is waited for.
// The RPC server routes the requests; this answers them.
import { toHex } from '@nearlite/primitives';
import { LruCache } from '@nearlite/store';
import { buildHeld, COLLECTED } from './held_build.js';
import { finalHeightOf, firstHeightOf, type LiveStreamChain } from './live_chain.js';
import { StreamerMessageBuilder, streamerMessageJson } from './streamer_message.js';

export type NeardataAnswer =
  | { readonly ok: true; readonly json: string; readonly final: boolean }
  | { readonly ok: false; readonly status: 404 | 500; readonly error: string; readonly type: string };

const MAX_BLOCK_HEIGHT = 10 ** 15;
const MAX_WAIT_BLOCKS = 10;

/** neardata's answer below its first block (its genesis; here, also the GC tail). */
const belowFirst = (): NeardataAnswer => ({
  ok: false,
  status: 404,
  error: 'Block height is before the genesis',
  type: 'BLOCK_HEIGHT_TOO_LOW',
});

export interface NeardataOptions {
  /** How long a request for a height not produced yet waits before its 404 (default 30 s). */
  readonly maxWaitMs?: number;
  /** Built messages kept in memory, by block hash (default 64). */
  readonly cacheBlocks?: number;
  /** The node keeps every block (no GC): its first height never moves. */
  readonly archive?: boolean;
}

export class NeardataService {
  private readonly builder: StreamerMessageBuilder;
  private readonly cache: LruCache<string, string>;
  private readonly maxWaitMs: number;
  readonly firstHeightFixed: boolean;

  constructor(
    private readonly chain: LiveStreamChain,
    o: NeardataOptions = {},
  ) {
    this.builder = new StreamerMessageBuilder(chain);
    this.cache = new LruCache(o.cacheBlocks ?? 64);
    this.maxWaitMs = o.maxWaitMs ?? 30_000;
    this.firstHeightFixed = o.archive ?? false;
  }

  finalHeight(): number {
    return finalHeightOf(this.chain);
  }

  optimisticHeight(): number {
    return this.chain.head().height;
  }

  firstHeight(): number {
    return firstHeightOf(this.chain);
  }

  async block(height: number, optimistic: boolean, signal: AbortSignal): Promise<NeardataAnswer> {
    if (height > MAX_BLOCK_HEIGHT)
      return { ok: false, status: 404, error: 'Block height is too high', type: 'BLOCK_HEIGHT_TOO_HIGH' };
    if (height < this.firstHeight()) return belowFirst();
    const limit = () => (optimistic ? this.optimisticHeight() : this.finalHeight());
    if (height > limit() + MAX_WAIT_BLOCKS)
      return {
        ok: false,
        status: 404,
        error: 'The block is too far in the future',
        type: 'BLOCK_DOES_NOT_EXIST',
      };
    if (height > limit() && !(await this.waitFor(() => height <= limit(), signal)))
      return { ok: false, status: 404, error: 'The block is not produced yet', type: 'BLOCK_DOES_NOT_EXIST' };
    const final = height <= this.finalHeight();
    const hash = this.chain.chainStore.blockHashByHeight(height);
    const key = hash && toHex(hash);
    const cached = key && this.cache.get(key);
    if (cached) return { ok: true, json: cached, final };
    const built = await buildHeld(this.chain, this.builder, height);
    if (built === COLLECTED) return belowFirst();
    if (!built) return { ok: true, json: 'null', final };
    const json = streamerMessageJson(built);
    if (key) this.cache.set(key, json);
    return { ok: true, json, final };
  }

  /** Resolves true once `ready()` holds after a new block, false on timeout or abort. */
  private waitFor(ready: () => boolean, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.chain.events.off('block', onBlock);
        signal.removeEventListener('abort', onAbort);
        resolve(ok);
      };
      const onBlock = () => {
        if (ready()) done(true);
      };
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), this.maxWaitMs);
      this.chain.events.on('block', onBlock);
      signal.addEventListener('abort', onAbort);
      if (signal.aborted || ready()) done(!signal.aborted);
    });
  }
}
