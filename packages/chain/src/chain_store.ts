// Read side of the chain's columns. Reads are synchronous (getSync + decoded LRUs); the single writer
// (Chain) updates the cached head after each committed block.
import { binaryKey, type CryptoHash } from '@nearlite/primitives';
import { asciiKey, blockShardKey, DBCol, LruCache, readU64be, type Store, u64be } from '@nearlite/store';
import { type BlockHeader, decodeBlockHeader } from './block_header.js';
import {
  type Chunk,
  type ChunkExtra,
  type ChunkHeader,
  decodeChunk,
  decodeChunkExtra,
  decodeChunkHeaders,
} from './chunk.js';

export const HEAD_KEY = asciiKey('HEAD');
export const TAIL_KEY = asciiKey('TAIL');
export const GENESIS_KEY = asciiKey('GENESIS');

export interface Tip {
  readonly height: number;
  readonly hash: CryptoHash;
}

export function encodeTip(t: Tip): Uint8Array {
  const out = new Uint8Array(40);
  out.set(u64be(t.height));
  out.set(t.hash, 8);
  return out;
}

export function decodeTip(b: Uint8Array): Tip {
  return { height: Number(readU64be(b)), hash: b.slice(8, 40) };
}

/** How many decoded headers, chunk header lists and chunk extras a ChainStore keeps. */
export interface ChainStoreCaches {
  readonly headers: number;
  readonly chunkHeaders: number;
  readonly extras: number;
}

/**
 * A reader's: decoded headers serve every by-height lookup (block, chunk, query at a block,
 * changes), at ~3 kB a header and ~1.5 kB an extra on the heap.
 */
export const READER_CACHES: ChainStoreCaches = { headers: 16_384, chunkHeaders: 4096, extras: 16_384 };

/**
 * A producer's, which reads back the blocks near its head: an archival node's chain thread held every
 * block's header and extra it had made (~75 MB after 16,000 blocks) under the reader's sizes.
 */
export const PRODUCER_CACHES: ChainStoreCaches = { headers: 1024, chunkHeaders: 256, extras: 1024 };

export class ChainStore {
  private readonly headers: LruCache<string, BlockHeader>;
  private readonly chunkHeaders: LruCache<string, ChunkHeader[]>;
  private readonly extras: LruCache<string, ChunkExtra>;

  /** Heights below this count as collected already (a GC batch another thread is writing). */
  private tailFloor = 0;

  constructor(
    readonly store: Store,
    caches: ChainStoreCaches = READER_CACHES,
  ) {
    this.headers = new LruCache(caches.headers);
    this.chunkHeaders = new LruCache(caches.chunkHeaders);
    this.extras = new LruCache(caches.extras);
  }

  /**
   * Treats heights below `height` as collected from now on, before the store says so: a reader whose
   * store another thread writes learns of a GC batch just before it is written, and must not answer
   * from a block whose rows may disappear under it.
   */
  raiseTail(height: number): void {
    if (height > this.tailFloor) this.tailFloor = height;
  }

  head(): Tip | null {
    const b = this.store.get(DBCol.BlockMisc, HEAD_KEY);
    return b ? decodeTip(b) : null;
  }

  /** The lowest height whose block data is still stored (genesis on archival nodes). */
  tail(): number | null {
    const b = this.store.get(DBCol.BlockMisc, TAIL_KEY);
    if (!b) return this.tailFloor > 0 ? this.tailFloor : null;
    return Math.max(Number(readU64be(b)), this.tailFloor);
  }

  genesisHash(): CryptoHash | null {
    return this.store.get(DBCol.BlockMisc, GENESIS_KEY) ?? null;
  }

  blockHashByHeight(height: number): CryptoHash | undefined {
    if (!Number.isSafeInteger(height) || height < 0) return undefined;
    return this.store.get(DBCol.BlockHeight, u64be(height));
  }

  blockHeader(hash: CryptoHash): BlockHeader | undefined {
    const k = binaryKey(hash);
    const hit = this.headers.get(k);
    if (hit) return hit;
    const b = this.store.get(DBCol.BlockHeader, hash);
    if (!b) return undefined;
    const h = decodeBlockHeader(b);
    this.headers.set(k, h);
    return h;
  }

  blockChunkHeaders(hash: CryptoHash): ChunkHeader[] | undefined {
    const k = binaryKey(hash);
    const hit = this.chunkHeaders.get(k);
    if (hit) return hit;
    const b = this.store.get(DBCol.Block, hash);
    if (!b) return undefined;
    const h = decodeChunkHeaders(b);
    this.chunkHeaders.set(k, h);
    return h;
  }

  chunk(chunkHash: CryptoHash): Chunk | undefined {
    const b = this.chunkRow(chunkHash);
    return b ? decodeChunk(b) : undefined;
  }

  /** The chunk's stored bytes, as the store's read cache holds them (see DecodedRows). */
  chunkRow(chunkHash: CryptoHash): Uint8Array | undefined {
    return this.store.get(DBCol.Chunks, chunkHash);
  }

  chunkExtra(blockHash: CryptoHash, shardId: number): ChunkExtra | undefined {
    const key = blockShardKey(blockHash, shardId);
    const k = binaryKey(key);
    const hit = this.extras.get(k);
    if (hit) return hit;
    const b = this.store.get(DBCol.ChunkExtra, key);
    if (!b) return undefined;
    const e = decodeChunkExtra(b);
    this.extras.set(k, e);
    return e;
  }

  /** Drops cached rows of a collected block. */
  forget(hash: CryptoHash): void {
    const k = binaryKey(hash);
    this.headers.delete(k);
    this.chunkHeaders.delete(k);
  }
}
