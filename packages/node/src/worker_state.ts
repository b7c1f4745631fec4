// A view worker's own reads of a block's state: the trie at the view's state root (a producer), or a
// follower's flat history rows as of the view's height, over the worker's handle on the node's
// LevelDB (one per database path, opened on first use and kept for the worker's life). Decoded trie
// nodes are cached by the trie package, per thread.
import { FLAT_MISS, flatRowHeight, flatValueAt } from '@nearlite/follower/flat';
import { toHex } from '@nearlite/primitives';
import { DBCol, SharedStoreReader } from '@nearlite/store';
import { Trie } from '@nearlite/trie';
import type { WorkerState } from './view_pool.js';

const readers = new Map<string, Promise<SharedStoreReader>>();

function reader(path: string): Promise<SharedStoreReader> {
  let r = readers.get(path);
  if (!r) {
    r = SharedStoreReader.open(path);
    // A failed open is not kept: the next view tries again.
    r.catch(() => readers.delete(path));
    readers.set(path, r);
  }
  return r;
}

/**
 * The state reader of one view call; a read that fails throws (the view fails, never sees absence).
 * Over a follower's history, a key whose flat row cannot answer for the height goes to `fallback`.
 */
export async function workerStateGet(
  at: WorkerState,
  fallback: (key: Uint8Array) => Uint8Array | undefined,
): Promise<(key: Uint8Array) => Uint8Array | undefined> {
  const db = await reader(at.path);
  if ('height' in at) {
    const { height, stateFrom } = at;
    const given = at.given && new Map(at.given.map(([k, v]) => [toHex(k), v]));
    return (key) => {
      if (given) {
        const k = toHex(key);
        if (given.has(k)) return given.get(k) ?? undefined;
      }
      const row = db.get(DBCol.StateHistoryFlat, key);
      // A row from before the state is held (or none) cannot tell: the main thread answers why.
      if (stateFrom !== undefined && (row === undefined || flatRowHeight(row) < stateFrom))
        return fallback(key);
      const v = flatValueAt(row, height);
      return v === FLAT_MISS ? fallback(key) : (v ?? undefined);
    };
  }
  const trie = new Trie({ get: (hash) => db.get(DBCol.State, hash) }, at.root);
  return (key) => trie.get(key);
}
