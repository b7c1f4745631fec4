// Ingests verified StreamerMessages through a HistoryWriter: each backend commits a block's rows
// and then its cursor (LevelDB: one batch; PostgreSQL: the shard databases, then the meta database),
// so a crash at any moment leaves either the whole block or none of it as far as readers can tell,
// and a restart resumes at the block after the cursor with nothing missing or doubled.
import { base58Encode } from '@nearlite/primitives';
import { type StreamerMessage, verifyStreamerMessage } from '@nearlite/stream';
import { checkShape } from './check_shape.js';
import { checkGenesisAnchor, type FirstBlock, type GenesisAnchor, genesisFactsOf } from './genesis_anchor.js';
import type { HistoryWriter } from './history_reader.js';

export { blockUpdate } from './ingest_update.js';

/**
 * Verifies the message against the cursor and commits it. Throws BlockVerificationError (nothing
 * written) when the block fails a check.
 */
export async function ingestBlock(history: HistoryWriter, message: StreamerMessage): Promise<void> {
  await ingestBlocks(history, [message]);
}

/**
 * Verifies consecutive messages against the cursor and each other, and commits them together (the
 * catch-up path: several blocks per write). When one fails its checks, the ones before it are
 * committed and its BlockVerificationError is thrown.
 */
export async function ingestBlocks(
  history: HistoryWriter,
  messages: readonly StreamerMessage[],
  anchor?: GenesisAnchor,
): Promise<void> {
  const cursor = history.cursor();
  let prev = cursor ? { height: cursor.height, hash: base58Encode(cursor.hash) } : null;
  const verified: StreamerMessage[] = [];
  try {
    for (const m of messages) {
      verifyStreamerMessage(m, { prev });
      checkShape(m);
      if (prev === null && anchor) checkGenesisAnchor(anchor, firstBlockOf(m));
      verified.push(m);
      prev = { height: m.block.header.height, hash: m.block.header.hash };
    }
  } finally {
    if (verified.length > 0) await history.writeBlocks(verified, cursor === null);
  }
}

function firstBlockOf(m: StreamerMessage): FirstBlock {
  const h = m.block.header;
  return {
    height: h.height,
    hash: h.hash,
    prevHash: h.prev_hash,
    prevHeight: h.prev_height ?? null,
    genesis: genesisFactsOf(h),
  };
}
