import { concatBytes, setU64 } from '@nearlite/primitives';
// Key building helpers: big-endian integers keep numeric order in LevelDB's byte order.

export function u64be(n: number | bigint): Uint8Array {
  const out = new Uint8Array(8);
  setU64(out, 0, n, false);
  return out;
}

export function readU64be(bytes: Uint8Array, offset = 0): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(offset, false);
}

/** Concatenates key parts. */
export const joinKey = concatBytes;

/** `block ‖ u64be(shard)`: per-block shard rows. */
export function blockShardKey(blockHash: Uint8Array, shardId: number): Uint8Array {
  return joinKey(blockHash, u64be(shardId));
}

const enc = new TextEncoder();
export function asciiKey(s: string): Uint8Array {
  return enc.encode(s);
}
