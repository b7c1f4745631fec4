// nearcore's PartialMerkleTree: the frontier of the merkle tree over all block hashes so far, enough
// to append the next hash and to compute the root (`block_merkle_root` of the following block).
import { BorshReader, BorshWriter, type CryptoHash, combineHash, ZERO_HASH } from '@nearlite/primitives';

export interface PartialMerkleTree {
  readonly path: readonly CryptoHash[];
  readonly size: bigint;
}

export const EMPTY_MERKLE_TREE: PartialMerkleTree = { path: [], size: 0n };

export function merkleTreeRoot(t: PartialMerkleTree): CryptoHash {
  if (t.path.length === 0) return ZERO_HASH;
  let res = t.path[t.path.length - 1]!;
  for (let i = t.path.length - 2; i >= 0; i--) res = combineHash(t.path[i]!, res);
  return res;
}

export function merkleTreeInsert(t: PartialMerkleTree, elem: CryptoHash): PartialMerkleTree {
  const path = [...t.path];
  let s = t.size;
  let node = elem;
  while ((s & 1n) === 1n) {
    const last = path.pop()!;
    node = combineHash(last, node);
    s >>= 1n;
  }
  path.push(node);
  return { path, size: t.size + 1n };
}

export function encodeMerkleTree(t: PartialMerkleTree): Uint8Array {
  return new BorshWriter(40 + 32 * t.path.length)
    .vec(t.path, (w, h) => w.fixed(h))
    .u64(t.size)
    .toBytes();
}

export function decodeMerkleTree(bytes: Uint8Array): PartialMerkleTree {
  const r = new BorshReader(bytes);
  const path = r.vec((r) => r.fixed(32));
  const size = r.u64();
  r.end();
  return { path, size };
}
