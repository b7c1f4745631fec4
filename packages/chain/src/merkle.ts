// nearcore's `merklize` over a list of 32-byte hashes (each leaf is the hash of the item's borsh,
// which for a CryptoHash is sha256 of its 32 bytes) and the paths used in outcome proofs.
import { type CryptoHash, combineHash, sha256, ZERO_HASH } from '@nearlite/primitives';

export interface MerklePathItem {
  readonly hash: CryptoHash;
  readonly direction: 'Left' | 'Right';
}

/**
 * Root and per-leaf paths of nearcore's merkle tree over already-hashed leaves. A level's step is one
 * object, shared by the paths of every leaf beneath it: a block's outcome proofs hold n·log n steps
 * of only 2n distinct ones.
 */
export function merklizeLeaves(leaves: readonly CryptoHash[]): {
  root: CryptoHash;
  paths: MerklePathItem[][];
} {
  if (leaves.length === 0) return { root: ZERO_HASH, paths: [] };
  let hashes: readonly CryptoHash[] = leaves;
  const paths: MerklePathItem[][] = leaves.map(() => []);
  // Leaves per node of the current level.
  let span = 1;
  while (hashes.length > 1) {
    const next: CryptoHash[] = [];
    // Each node's step: its sibling, when it has one (the last node of an odd level has none).
    const steps: (MerklePathItem | null)[] = [];
    for (let l = 0; l < hashes.length; l += 2) {
      const r = l + 1;
      if (r < hashes.length) {
        next.push(combineHash(hashes[l]!, hashes[r]!));
        steps.push({ hash: hashes[r]!, direction: 'Right' }, { hash: hashes[l]!, direction: 'Left' });
      } else {
        next.push(hashes[l]!);
        steps.push(null);
      }
    }
    for (let j = 0; j < paths.length; j++) {
      const step = steps[Math.floor(j / span)];
      if (step) paths[j]!.push(step);
    }
    span *= 2;
    hashes = next;
  }
  return { root: hashes[0]!, paths };
}

/** nearcore's `merklize` of CryptoHash items: leaves are sha256 of each 32-byte hash. */
export function merklizeHashes(items: readonly CryptoHash[]): CryptoHash {
  return merklizeLeaves(items.map((h) => sha256(h))).root;
}

export function merklePathView(path: readonly MerklePathItem[]): object[] {
  return path.map((p) => ({ hash: p.hash, direction: p.direction }));
}
