// nearcore's `merklize` over a list of 32-byte hashes (each leaf is the hash of the item's borsh,
// which for a CryptoHash is sha256 of its 32 bytes) and the paths used in outcome proofs.
import { type CryptoHash, combineHash, sha256, ZERO_HASH } from '@nearlite/primitives';

export interface MerklePathItem {
  readonly hash: CryptoHash;
  readonly direction: 'Left' | 'Right';
}

/** Root and per-leaf paths of nearcore's merkle tree over already-hashed leaves. */
export function merklizeLeaves(leaves: readonly CryptoHash[]): {
  root: CryptoHash;
  paths: MerklePathItem[][];
} {
  if (leaves.length === 0) return { root: ZERO_HASH, paths: [] };
  let len = 1;
  while (len < leaves.length) len *= 2;
  let hashes: CryptoHash[] = [...leaves];
  const paths: MerklePathItem[][] = leaves.map(() => []);
  let counter = 1;
  while (len > 1) {
    len /= 2;
    const next: CryptoHash[] = [];
    for (let i = 0; i < len; i++) {
      const l = 2 * i;
      const r = 2 * i + 1;
      if (r < hashes.length) {
        next.push(combineHash(hashes[l]!, hashes[r]!));
        for (let j = 0; j < paths.length; j++) {
          const pos = Math.floor(j / counter);
          if (pos === l) paths[j]!.push({ hash: hashes[r]!, direction: 'Right' });
          else if (pos === r) paths[j]!.push({ hash: hashes[l]!, direction: 'Left' });
        }
      } else if (l < hashes.length) {
        next.push(hashes[l]!);
      }
    }
    counter *= 2;
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
