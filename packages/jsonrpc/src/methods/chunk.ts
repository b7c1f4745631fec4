import { argsError } from '../errors.js';
import { blockId, cryptoHash, isObj, u64 } from '../params.js';
import type { MethodHandler } from './types.js';

export const chunk: MethodHandler = (params, backend) => {
  if (Array.isArray(params)) {
    if (params.length !== 1) throw argsError(`invalid length ${params.length}, expected 1 element`);
    const [id] = params;
    if (Array.isArray(id)) {
      if (id.length !== 2) throw argsError('invalid length, expected [block_id, shard_id]');
      return backend.chunk({ blockId: blockId(id[0]), shardId: u64(id[1], 'a shard id') });
    }
    return backend.chunk({ chunkId: cryptoHash(id) });
  }
  if (!isObj(params)) throw argsError('invalid type: expected a chunk reference');
  if (params.chunk_id !== undefined) return backend.chunk({ chunkId: cryptoHash(params.chunk_id) });
  if (params.block_id === undefined || params.shard_id === undefined) {
    throw argsError('expected `chunk_id` or `block_id` and `shard_id`');
  }
  return backend.chunk({ blockId: blockId(params.block_id), shardId: u64(params.shard_id, 'a shard id') });
};
