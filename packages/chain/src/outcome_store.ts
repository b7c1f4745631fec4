// Stored execution outcomes: the runtime's borsh outcome plus where it sits (block, shard) and its
// merkle path inside the chunk's outcome root, so `tx` and light-client proofs need no recomputation.
import { BorshReader, BorshWriter, type CryptoHash, concatBytes, setU32, sha256 } from '@nearlite/primitives';
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
  return w.written();
}

/**
 * Reads a stored outcome's fields up to its merkle path's steps: `u32 n ‖ outcome (n bytes) ‖ block
 * hash (32) ‖ shard id (u64) ‖ u32 steps ‖ steps × (hash (32) ‖ direction (u8, 0: Left))`. The
 * reader is left at the first step, so a `tx` answer can write a path out without an object per step.
 */
function readToPath(bytes: Uint8Array) {
  const r = new BorshReader(bytes);
  const outcomeBytes = r.bytes();
  const blockHash = r.fixed(32);
  const shardId = Number(r.u64());
  const steps = r.u32();
  return { r, outcomeBytes, blockHash, shardId, steps };
}

/** Only the runtime's outcome bytes of a stored outcome (a view of `bytes`), its path left unread. */
export function storedOutcomeBytes(bytes: Uint8Array): Uint8Array {
  return new BorshReader(bytes).bytes();
}

/**
 * Where a stored outcome's merkle path begins in `bytes` and how many steps it has; step `i` is the
 * 32-byte hash at `at + 33 * i` followed by its direction byte (0: Left).
 */
export function storedOutcomePath(bytes: Uint8Array): { readonly at: number; readonly length: number } {
  const { r, steps } = readToPath(bytes);
  const at = r.offset;
  r.fixed(33 * steps);
  return { at, length: steps };
}

export function decodeStoredOutcome(bytes: Uint8Array): StoredOutcome {
  const { r, outcomeBytes, blockHash, shardId, steps } = readToPath(bytes);
  const proof: MerklePathItem[] = [];
  for (let i = 0; i < steps; i++) {
    proof.push({ hash: r.fixed(32), direction: r.u8() === 0 ? 'Left' : 'Right' });
  }
  return { outcomeBytes, blockHash, shardId, proof };
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
