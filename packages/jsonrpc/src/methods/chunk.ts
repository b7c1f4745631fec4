import { attempt } from '@nearlite/primitives';
import type { ChunkReference } from '../backend.js';
import { blockId, cryptoHash, expectStruct, tuple, u64 } from '../params.js';
import { noUntaggedMatch } from '../serde.js';
import type { MethodHandler } from './types.js';

/** `{chunk_id}`, `{block_id, shard_id}`, or the legacy `[chunk_id]` and `[[block_id, shard_id]]`. */
export function parseChunkRequest(params: unknown): ChunkReference {
  if (Array.isArray(params) && params.length === 1) {
    const v: unknown = params[0];
    if (Array.isArray(v)) {
      const [b, s] = tuple(v, 2);
      return { blockId: blockId(b), shardId: u64(s) };
    }
    return { chunkId: cryptoHash(v) };
  }
  // Anything else is the untagged ChunkReference itself (nearcore's parse_chunk_reference): the
  // block/shard form first, then the chunk hash, each a struct that serde also reads from a
  // sequence of its fields (`[block_id, shard_id]`, `[chunk_id]` taken above).
  const fields = Array.isArray(params)
    ? params.length === 2
      ? { block_id: params[0], shard_id: params[1] }
      : null
    : params;
  const byBlock = attempt(() => {
    const o = expectStruct(fields, 'BlockShardId');
    return { blockId: blockId(o.block_id), shardId: u64(o.shard_id) };
  });
  const ref = byBlock ?? attempt(() => ({ chunkId: cryptoHash(expectStruct(params, 'ChunkHash').chunk_id) }));
  if (ref === undefined) throw noUntaggedMatch('ChunkReference');
  return ref;
}

export const chunk: MethodHandler = (params, backend) => backend.chunk(parseChunkRequest(params));
