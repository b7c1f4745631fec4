// nearcore's bandwidth-scheduler sanity-check hash, worked out with node:crypto rather than with
// nearlite's code: each chunk sets it to hash(previous ‖ hash_borsh(all_shards)), where the layout's
// Vec<ShardId> is a u32 length, then each id as a u64 LE; it starts from CryptoHash::default().
import { createHash } from 'node:crypto';

export const FIRST_SANITY_HASH = new Uint8Array(32);

export function nextSanityHash(previous: Uint8Array, shardIds: readonly number[]): Uint8Array {
  const layout = Buffer.alloc(4 + 8 * shardIds.length);
  layout.writeUInt32LE(shardIds.length, 0);
  for (const [i, id] of shardIds.entries()) layout.writeBigUInt64LE(BigInt(id), 4 + 8 * i);
  const layoutHash = createHash('sha256').update(layout).digest();
  return new Uint8Array(createHash('sha256').update(previous).update(layoutHash).digest());
}
