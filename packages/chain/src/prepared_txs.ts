// The row that names the transactions of chunks made ahead of their block (Chain.prepareNextChunks).
// Their signed bytes are stored when the chunks are made, as nearcore's save_chunk stores a chunk's
// transactions, so a status request answers INCLUDED from then on; this row is what lets a node
// killed before the block pool them again when it starts, so nothing answered INCLUDED is lost.
// It names every such transaction no committed block holds yet: a block rewrites it without the
// ones it holds or refused, and deletes it once none is left.
import { BorshReader, BorshWriter, type CryptoHash } from '@nearlite/primitives';
import { asciiKey, DBCol, type Store } from '@nearlite/store';
import type { PooledTransaction } from './tx_pool.js';

export const PREPARED_TXS_KEY = asciiKey('PREPARED_TXS');

export function encodePreparedTxs(txs: readonly PooledTransaction[]): Uint8Array {
  const w = new BorshWriter(64 + txs.length * 96);
  w.vec(txs, (w, t) => w.fixed(t.hash).u32(t.shardId).string(t.accessKeyId).u64(t.nonce));
  return w.toBytes();
}

/**
 * The transactions the row names that no block has included yet, with their stored bytes; a row this
 * version cannot read is an error, never a guess.
 */
export function readPreparedTxs(store: Store): PooledTransaction[] {
  const row = store.get(DBCol.BlockMisc, PREPARED_TXS_KEY);
  if (!row) return [];
  const r = new BorshReader(row);
  const named = r.vec((r) => ({
    hash: r.fixed(32) as CryptoHash,
    shardId: r.u32(),
    accessKeyId: r.string(),
    nonce: r.u64(),
  }));
  r.end();
  const out: PooledTransaction[] = [];
  for (const t of named) {
    if (store.has(DBCol.TransactionBlock, t.hash)) continue;
    const bytes = store.get(DBCol.Transactions, t.hash);
    if (bytes) out.push({ ...t, bytes });
  }
  return out;
}
