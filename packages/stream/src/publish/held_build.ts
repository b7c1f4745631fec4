// Building a block's message reads its rows across awaits; on a node that collects garbage, the
// height is pinned first, in the same synchronous step that checks it against the tail, so GC cannot
// take the block midway. A half-read block would be published as final, or as `null` (a height
// without block) for a follower to record as one.
import { firstHeightOf, type LiveStreamChain } from './live_chain.js';
import type { BuiltStreamerMessage, StreamerMessageBuilder } from './streamer_message.js';

/** The answer for a height GC has taken (or is taking): below the first kept block. */
export const COLLECTED: unique symbol = Symbol('collected');

export async function buildHeld(
  chain: LiveStreamChain,
  builder: Pick<StreamerMessageBuilder, 'build'>,
  height: number,
): Promise<BuiltStreamerMessage | null | typeof COLLECTED> {
  const release = chain.statePins.hold(height);
  if (!release) return COLLECTED;
  try {
    // A pin taken after GC finished with the height holds nothing.
    if (height < firstHeightOf(chain)) return COLLECTED;
    return await builder.build(height);
  } finally {
    release();
  }
}
