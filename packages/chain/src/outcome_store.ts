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

/**
 * The row's layout, read in place: `u32 n ‖ outcome (n bytes) ‖ block hash (32) ‖ shard id (u64) ‖
 * u32 steps ‖ steps × (hash (32) ‖ direction (u8, 0: Left))`. Every reader below goes through
 * these offsets, so a `tx` answer can write a path out without an object per step.
 */
function need(bytes: Uint8Array, end: number): void {
  if (end > bytes.length)
    throw new BorshError(`unexpected end of input: need ${end} bytes of ${bytes.length}`);
}

function u32At(bytes: Uint8Array, at: number): number {
  need(bytes, at + 4);
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)) + bytes[at + 3]! * 0x1000000;
}

/** Only the runtime's outcome bytes of a stored outcome (a view of `bytes`), its path left unread. */
export function storedOutcomeBytes(bytes: Uint8Array): Uint8Array {
  const n = u32At(bytes, 0);
  need(bytes, 4 + n);
  return bytes.subarray(4, 4 + n);
}

/**
 * Where a stored outcome's merkle path begins in `bytes` and how many steps it has; step `i` is the
 * 32-byte hash at `at + 33 * i` followed by its direction byte (0: Left).
 */
export function storedOutcomePath(bytes: Uint8Array): { readonly at: number; readonly length: number } {
  const countAt = 4 + u32At(bytes, 0) + 32 + 8;
  const length = u32At(bytes, countAt);
  need(bytes, countAt + 4 + 33 * length);
  return { at: countAt + 4, length };
}

export function decodeStoredOutcome(bytes: Uint8Array): StoredOutcome {
  const outcomeBytes = storedOutcomeBytes(bytes);
  const path = storedOutcomePath(bytes);
  const blockAt = 4 + outcomeBytes.length;
  const proof: MerklePathItem[] = [];
  for (let i = 0, at = path.at; i < path.length; i++, at += 33) {
    proof.push({ hash: bytes.subarray(at, at + 32), direction: bytes[at + 32] === 0 ? 'Left' : 'Right' });
  }
  return {
    outcomeBytes,
    blockHash: bytes.subarray(blockAt, blockAt + 32),
    shardId: u32At(bytes, blockAt + 32) + u32At(bytes, blockAt + 36) * 0x100000000,
    proof,
  };
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
