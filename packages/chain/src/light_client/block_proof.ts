// Proof that a past block is a leaf of the block merkle tree whose root a later block carries
// (`block_merkle_root`), as nearcore's compute_past_block_proof_in_merkle_tree_of_later_block.
// The tree is nearcore's PartialMerkleTree over block hashes by ordinal: perfect subtrees by
// descending size, folded from the right; a node with no right part is its left part. Nodes are
// read from the partial trees kept for every block (the tree of size s ends with the root of its
// smallest perfect subtree), so a proof costs O(log² n) reads and needs no old block hash.
import { type CryptoHash, combineHash } from '@nearlite/primitives';
import type { PartialMerkleTree } from '../block_merkle_tree.js';
import type { MerklePathItem } from '../merkle.js';

export interface BlockMerkleSource {
  /** The partial tree holding the first `size` block hashes (that of the block with ordinal `size`). */
  treeOfSize(size: number): PartialMerkleTree;
  /** The hash of the block with this 1-based ordinal (a leaf). */
  hashOfOrdinal(ordinal: number): CryptoHash;
}

/** A complete node: the subtree of 2^level leaves starting at index·2^level. */
function completeNode(src: BlockMerkleSource, index: number, level: number): CryptoHash {
  if (level === 0) return src.hashOfOrdinal(index + 1);
  const span = 2 ** level;
  const size = (index + 1) * span;
  // The tree of `size` leaves ends with this node exactly when size's lowest set bit is `span`.
  if ((size / span) % 2 === 1) {
    const path = src.treeOfSize(size).path;
    const last = path[path.length - 1];
    if (!last) throw new RangeError(`empty block merkle tree of size ${size}`);
    return last;
  }
  return combineHash(completeNode(src, 2 * index, level - 1), completeNode(src, 2 * index + 1, level - 1));
}

/** A node of the tree of `n` leaves, or null when it holds none of them. */
function node(src: BlockMerkleSource, index: number, level: number, n: number): CryptoHash | null {
  const span = 2 ** level;
  const start = index * span;
  if (start >= n) return null;
  if (start + span <= n) return completeNode(src, index, level);
  const left = node(src, 2 * index, level - 1, n)!;
  const right = node(src, 2 * index + 1, level - 1, n);
  return right ? combineHash(left, right) : left;
}

/** The path of leaf `leaf` (0-based) to the root of the tree of the first `n` block hashes. */
export function pastBlockProof(src: BlockMerkleSource, leaf: number, n: number): MerklePathItem[] {
  if (leaf < 0 || leaf >= n) throw new RangeError(`leaf ${leaf} outside a tree of ${n}`);
  const path: MerklePathItem[] = [];
  let index = leaf;
  for (let level = 0; 2 ** level < n; level++) {
    const sibling = index ^ 1;
    const hash = node(src, sibling, level, n);
    if (hash) path.push({ hash, direction: sibling < index ? 'Left' : 'Right' });
    index = Math.floor(index / 2);
  }
  return path;
}
