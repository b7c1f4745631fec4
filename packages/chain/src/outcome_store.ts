// Stored execution outcomes: the runtime's borsh outcome plus where it sits (block, shard) and its
// merkle path inside the chunk's outcome root, so `tx` and light-client proofs need no recomputation.
import {
  BorshError,
  BorshReader,
  BorshWriter,
  type CryptoHash,
  concatBytes,
  setU32,
  sha256,
} from '@nearlite/primitives';
import type { MerklePathItem } from './merkle.js';

export interface StoredOutcome {
  readonly outcomeBytes: Uint8Array;
  readonly blockHash: CryptoHash;
  readonly shardId: number;
  readonly proof: readonly MerklePathItem[];
}

export function encodeStoredOutcome(o: StoredOutcome): Uint8Array {
  const w = new BorshWriter(o.outcomeBytes.length + 128);
  w.bytes(o.outcomeBytes).fixed(o.blockHash).u64(o.shardId);
  w.vec(o.proof, (w, p) => w.fixed(p.hash).u8(p.direction === 'Left' ? 0 : 1));
  return w.toBytes();
}

export function decodeStoredOutcome(bytes: Uint8Array): StoredOutcome {
  const r = new BorshReader(bytes);
  const outcomeBytes = r.bytes();
  const blockHash = r.fixed(32);
  const shardId = Number(r.u64());
  const proof = r.vec((r) => ({
    hash: r.fixed(32),
    direction: r.u8() === 0 ? ('Left' as const) : ('Right' as const),
  }));
  return { outcomeBytes, blockHash, shardId, proof };
}

/** A little-endian u32 of stored bytes, checked to lie within them. */
function u32At(bytes: Uint8Array, at: number): number {
  if (at + 4 > bytes.length)
    throw new BorshError(`unexpected end of input at offset ${at} of ${bytes.length}`);
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)) + bytes[at + 3]! * 0x1000000;
}

/** Only the runtime's outcome bytes of a stored outcome (a view of `bytes`), its path left unread. */
export function storedOutcomeBytes(bytes: Uint8Array): Uint8Array {
  const n = u32At(bytes, 0);
  if (4 + n > bytes.length) throw new BorshError(`unexpected end of input at offset 4 of ${bytes.length}`);
  return bytes.subarray(4, 4 + n);
}

/**
 * Where a stored outcome's merkle path begins in `bytes` and how many steps it has; step `i` is the
 * 32-byte hash at `at + 33 * i` followed by its direction byte (0: Left). For readers that write
 * the path out without making an object per step.
 */
export function storedOutcomePath(bytes: Uint8Array): { readonly at: number; readonly length: number } {
  const countAt = 4 + u32At(bytes, 0) + 32 + 8;
  const length = u32At(bytes, countAt);
  const at = countAt + 4;
  if (at + 33 * length > bytes.length)
    throw new BorshError(`unexpected end of input at offset ${at} of ${bytes.length}`);
  return { at, length };
}

/** The merkle leaf of one outcome: hash_borsh(Vec<CryptoHash>) of its to_hashes(). */
export function outcomeLeaf(hashes: readonly CryptoHash[]): CryptoHash {
  const n = new Uint8Array(4);
  setU32(n, 0, hashes.length, true);
  return sha256(concatBytes(n, ...hashes));
}

export function encodeIdList(ids: readonly CryptoHash[]): Uint8Array {
  return new BorshWriter(4 + 32 * ids.length).vec(ids, (w, h) => w.fixed(h)).toBytes();
}

export function decodeIdList(bytes: Uint8Array): CryptoHash[] {
  return new BorshReader(bytes).vec((r) => r.fixed(32));
}

export function encodeBytesList(items: readonly Uint8Array[]): Uint8Array {
  return new BorshWriter(64).vec(items, (w, b) => w.bytes(b)).toBytes();
}

export function decodeBytesList(bytes: Uint8Array): Uint8Array[] {
  return new BorshReader(bytes).vec((r) => r.bytes());
}
