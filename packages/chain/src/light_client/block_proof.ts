// Proof that a past block is a leaf of the block merkle tree whose root a later block carries
// (`block_merkle_root`), as nearcore's compute_past_block_proof_in_merkle_tree_of_later_block.
// The tree is nearcore's PartialMerkleTree: perfect subtrees by descending size, folded from the
// right, over the hashes of every block before the later one.
import { type CryptoHash, combineHash } from '@nearlite/primitives';
import type { MerklePathItem } from '../merkle.js';

/** Root of a perfect subtree (length a power of two) and the path of leaf `i` inside it. */
function perfectSubtree(
  leaves: readonly CryptoHash[],
  i: number,
): { root: CryptoHash; path: MerklePathItem[] } {
  let level = [...leaves];
  let idx = i;
  const path: MerklePathItem[] = [];
  while (level.length > 1) {
    if (idx >= 0) {
      const sib = idx ^ 1;
      path.push({ hash: level[sib]!, direction: sib < idx ? 'Left' : 'Right' });
      idx >>= 1;
    }
    const next: CryptoHash[] = [];
    for (let k = 0; k < level.length; k += 2) next.push(combineHash(level[k]!, level[k + 1]!));
    level = next;
  }
  return { root: level[0]!, path };
}

/** The path of leaf `index` among `leaves` (all block hashes before the later block, in order). */
export function pastBlockProof(leaves: readonly CryptoHash[], index: number): MerklePathItem[] {
  const n = leaves.length;
  if (index < 0 || index >= n) throw new RangeError(`leaf ${index} outside a tree of ${n}`);
  const roots: CryptoHash[] = [];
  let inner: MerklePathItem[] = [];
  let mine = -1;
  let offset = 0;
  for (let bit = 2 ** Math.floor(Math.log2(n)); bit >= 1; bit /= 2) {
    if ((n & bit) === 0) continue;
    const slice = leaves.slice(offset, offset + bit);
    const inside = index >= offset && index < offset + bit;
    const { root, path } = perfectSubtree(slice, inside ? index - offset : -1);
    if (inside) {
      inner = path;
      mine = roots.length;
    }
    roots.push(root);
    offset += bit;
  }
  const path = [...inner];
  if (mine < roots.length - 1) {
    let fold = roots[roots.length - 1]!;
    for (let j = roots.length - 2; j > mine; j--) fold = combineHash(roots[j]!, fold);
    path.push({ hash: fold, direction: 'Right' });
  }
  for (let j = mine - 1; j >= 0; j--) path.push({ hash: roots[j]!, direction: 'Left' });
  return path;
}
