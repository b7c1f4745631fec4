// Builds the rows of one block. Everything a block adds, including the head pointer, goes into the
// caller's single StoreUpdate so a crash leaves either the whole block or none of it.
import type { CryptoHash } from '@nearlite/primitives';
import { blockShardKey, DBCol, type StoreUpdate, u64be } from '@nearlite/store';
import { type BlockHeader, encodeBlockHeader } from './block_header.js';
import { encodeTip, GENESIS_KEY, HEAD_KEY, TAIL_KEY } from './chain_store.js';
import { type Chunk, encodeChunk, encodeChunkHeaders } from './chunk.js';

export function writeBlock(update: StoreUpdate, header: BlockHeader, chunks: readonly Chunk[]): void {
  update.put(DBCol.BlockHeader, header.hash, encodeBlockHeader(header));
  update.put(DBCol.Block, header.hash, encodeChunkHeaders(chunks.map((c) => c.header)));
  update.put(DBCol.BlockHeight, u64be(header.lite.height), header.hash);
  update.put(DBCol.BlockOrdinal, u64be(header.rest.blockOrdinal), header.hash);
  for (const c of chunks) {
    update.put(DBCol.Chunks, c.header.chunkHash, encodeChunk(c));
    update.put(
      DBCol.ChunkHashesByBlock,
      blockShardKey(header.hash, c.header.inner.shardId),
      c.header.chunkHash,
    );
  }
}

export function writeHead(update: StoreUpdate, height: number, hash: CryptoHash): void {
  update.put(DBCol.BlockMisc, HEAD_KEY, encodeTip({ height, hash }));
}

export function writeGenesisPointers(update: StoreUpdate, height: number, hash: CryptoHash): void {
  update.put(DBCol.BlockMisc, GENESIS_KEY, hash);
  update.put(DBCol.BlockMisc, TAIL_KEY, u64be(height));
}
