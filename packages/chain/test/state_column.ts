// What the State column should hold on a store GC has run on: every node and value the states of
// the kept blocks reach, and the nodes the tail block's chunks replaced (its trie deletions, which
// are released when the tail block itself is collected). Nothing else: a node missing is one a kept
// state needs and GC released; a node left over is one only collected states needed.
import { ChainStore, readTrieDeletions } from '@nearlite/chain';
import { type CryptoHash, toHex } from '@nearlite/primitives';
import { blockShardKey, DBCol, type Store } from '@nearlite/store';
import { decodeRawNode, isEmptyRoot } from '@nearlite/trie';

/** Every node and value hash reachable from `roots`, and those of them the State column lacks. */
function reachable(store: Store, roots: readonly CryptoHash[]): { found: Set<string>; missing: string[] } {
  const found = new Set<string>();
  const missing: string[] = [];
  const stack = roots.filter((r) => !isEmptyRoot(r));
  while (stack.length > 0) {
    const hash = stack.pop()!;
    const hex = toHex(hash);
    if (found.has(hex)) continue;
    found.add(hex);
    const bytes = store.get(DBCol.State, hash);
    if (!bytes) {
      missing.push(hex);
      continue;
    }
    const { node } = decodeRawNode(bytes);
    const value = node.kind === 'extension' ? null : node.value;
    if (value) {
      const v = toHex(value.hash);
      found.add(v);
      if (!store.get(DBCol.State, value.hash)) missing.push(v);
    }
    if (node.kind === 'extension') stack.push(node.child);
    else if (node.kind === 'branch')
      for (let i = 0; i < 16; i++) {
        const child = node.children.get(i);
        if (child) stack.push(child);
      }
  }
  return { found, missing };
}

export interface StateColumnCheck {
  /** Nodes and values a kept state reaches that the column lacks. */
  readonly missing: string[];
  /** Rows of the column no kept state reaches and the tail block did not replace. */
  readonly leftOver: string[];
  /** How many rows the column holds. */
  readonly rows: number;
}

export async function checkStateColumn(
  store: Store,
  shardIds: readonly number[],
  tail: number,
  head: number,
): Promise<StateColumnCheck> {
  const cs = new ChainStore(store);
  const roots: CryptoHash[] = [];
  const replaced = new Set<string>();
  for (let h = tail; h <= head; h++) {
    const hash = cs.blockHashByHeight(h);
    if (!hash) continue;
    for (const shardId of shardIds) {
      roots.push(cs.chunkExtra(hash, shardId)!.stateRoot);
      if (h !== tail) continue;
      const deletions = store.get(DBCol.TrieChanges, blockShardKey(hash, shardId));
      for (const d of deletions ? readTrieDeletions(deletions) : []) replaced.add(toHex(d.hash));
    }
  }
  const { found, missing } = reachable(store, roots);
  const leftOver: string[] = [];
  let rows = 0;
  for await (const [k] of store.iter(DBCol.State)) {
    rows++;
    const hex = toHex(k);
    if (!found.has(hex) && !replaced.has(hex)) leftOver.push(hex);
  }
  return { missing, leftOver, rows };
}
