// The shape checks every source applies before handing a message on: enough to know it is a block
// stream message for the height asked (the follower verifies the chain itself).
import { isJsonObject } from '@nearlite/primitives';
import { TransientSourceError } from '../errors.js';
import { parseStreamJson } from '../json.js';
import type { BlockViewJson, IndexerShard, StreamerMessage } from '../message.js';
import { isCamelCased, normalizeBlockView, normalizeShard, normalizeStreamerMessage } from '../normalize.js';

/** Parses JSON text; anything unreadable is transient (a partial write, a proxy's error page). */
export function parseJsonText(text: string, what: string): unknown {
  try {
    return parseStreamJson(text);
  } catch (err) {
    throw new TransientSourceError(`${what} is not JSON (${(err as Error).message})`);
  }
}

// Messages camelCased by near-lake-framework-js (served again by whoever read them through it) are
// turned back into nearcore's snake_case before they are checked.
export function asBlockView(raw: unknown, height: number, what: string): BlockViewJson {
  const v = normalizeBlockView(raw);
  const header = isJsonObject(v) ? v.header : undefined;
  if (
    !isJsonObject(v) ||
    !isJsonObject(header) ||
    typeof header.hash !== 'string' ||
    !Array.isArray(v.chunks)
  )
    throw new TransientSourceError(`${what} is not a BlockView`);
  if (header.height !== height)
    throw new TransientSourceError(`${what} holds height ${String(header.height)}, not ${height}`);
  return v as BlockViewJson;
}

export function asShard(raw: unknown, shardId: number, what: string): IndexerShard {
  const v = normalizeShard(raw);
  if (!isJsonObject(v) || v.shard_id !== shardId || !Array.isArray(v.state_changes))
    throw new TransientSourceError(`${what} is not shard ${shardId} of an IndexerShard`);
  return v as IndexerShard;
}

export function asStreamerMessage(raw: unknown, height: number, what: string): StreamerMessage | null {
  if (raw === null) return null;
  const v = isCamelCased(raw) ? normalizeStreamerMessage(raw) : raw;
  if (!isJsonObject(v) || !Array.isArray(v.shards))
    throw new TransientSourceError(`${what} is not a StreamerMessage`);
  const block = asBlockView(v.block, height, what);
  const shards = v.shards.map((s, i) =>
    asShard(s, isJsonObject(s) && typeof s.shard_id === 'number' ? s.shard_id : i, what),
  );
  return { block, shards };
}

/** The shard ids a block has files for: one per entry of its `chunks`. */
export function shardIdsOf(block: BlockViewJson): number[] {
  return block.chunks.map((c, i) => (typeof c.shard_id === 'number' ? c.shard_id : i));
}
