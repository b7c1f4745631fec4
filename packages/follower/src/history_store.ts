// Reads of a follower's history store. One writer (the follow loop, through `ingestBlock`) commits
// each block as one batch whose last-read row is the cursor, so readers only ever see whole blocks.
// Point reads of stored views are synchronous (`getSync`); state reads "as of height H" seek the
// StateHistory column and are async (classic-level has no synchronous iterator).
import { bytesEqual, type CryptoHash, concatBytes, fromUtf8, utf8 } from '@nearlite/primitives';
import { asciiKey, DBCol, readU64be, type Store, u64be } from '@nearlite/store';
import {
  decodeHistoryKey,
  decodeHistoryValue,
  historyKeyPrefix,
  historyScanPrefix,
  invertedHeight,
} from './history_key.js';

export interface Cursor {
  readonly height: number;
  readonly hash: CryptoHash;
}

export const CURSOR_KEY = asciiKey('cursor');
export const GENESIS_KEY = asciiKey('genesis');
export const FIRST_KEY = asciiKey('first');

export function encodeCursor(c: Cursor): Uint8Array {
  return concatBytes(u64be(c.height), c.hash);
}

/** A stored block row: u64be height ‖ the block view JSON. */
export function encodeBlockRow(height: number, json: string): Uint8Array {
  return concatBytes(u64be(height), utf8(json));
}

export interface StoredBlock {
  readonly height: number;
  readonly hash: CryptoHash;
  readonly json: string;
}

export class HistoryStore {
  constructor(readonly store: Store) {}

  cursor(): Cursor | null {
    const v = this.store.get(DBCol.FollowerMisc, CURSOR_KEY);
    if (!v) return null;
    return { height: Number(readU64be(v, 0)), hash: v.slice(8, 40) };
  }

  /** Height whose state the genesis records give; null before `loadGenesisHistory`. */
  genesisHeight(): number | null {
    const v = this.store.get(DBCol.FollowerMisc, GENESIS_KEY);
    return v ? Number(readU64be(v, 0)) : null;
  }

  blockHashAt(height: number): CryptoHash | undefined {
    return this.store.get(DBCol.StreamBlockHeight, u64be(height));
  }

  block(hash: CryptoHash): StoredBlock | undefined {
    const v = this.store.get(DBCol.StreamBlock, hash);
    if (!v) return undefined;
    return { height: Number(readU64be(v, 0)), hash, json: fromUtf8(v.subarray(8)) };
  }

  blockAt(height: number): StoredBlock | undefined {
    const hash = this.blockHashAt(height);
    return hash ? this.block(hash) : undefined;
  }

  /** Height of the first followed block: below it (down to genesis) this node holds no blocks. */
  firstHeight(): number | null {
    const v = this.store.get(DBCol.FollowerMisc, FIRST_KEY);
    return v ? Number(readU64be(v, 0)) : null;
  }

  json(col: (typeof DBCol)[keyof typeof DBCol], key: Uint8Array): string | undefined {
    const v = this.store.get(col, key);
    return v ? fromUtf8(v) : undefined;
  }

  /** The value of a trie key as of `height` (after that block), or null when absent then. */
  async valueAt(trieKey: Uint8Array, height: number): Promise<Uint8Array | null> {
    const prefix = historyKeyPrefix(trieKey);
    const gte = concatBytes(prefix, invertedHeight(height));
    for await (const [, v] of this.store.iter(DBCol.StateHistory, prefix, { gte, limit: 1 })) {
      return decodeHistoryValue(v);
    }
    return null;
  }

  /** Every (trie key, value) under `prefix` as of `height`, in trie-key order. */
  async scanAt(prefix: Uint8Array, height: number): Promise<[Uint8Array, Uint8Array][]> {
    const out: [Uint8Array, Uint8Array][] = [];
    let lastKey: Uint8Array | null = null;
    let done = false;
    for await (const [k, v] of this.store.iter(DBCol.StateHistory, historyScanPrefix(prefix))) {
      const { trieKey, height: h } = decodeHistoryKey(k);
      if (lastKey === null || !bytesEqual(trieKey, lastKey)) {
        lastKey = trieKey;
        done = false;
      }
      if (done || h > height) continue;
      done = true;
      const value = decodeHistoryValue(v);
      if (value) out.push([trieKey, value.slice()]);
    }
    return out;
  }
}
