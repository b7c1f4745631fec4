// Commits prepared blocks (see prepare.ts) in height order: each must extend the one before it, the
// first the cursor. As with `ingestBlocks`, the blocks before a refused one are committed and its
// BlockVerificationError is thrown.
import { base58Encode } from '@nearlite/primitives';
import { BlockVerificationError, verifyLink } from '@nearlite/stream';
import { checkGenesisAnchor, type GenesisAnchor } from './genesis_anchor.js';
import type { PreparedBlock, PreparedOrRefused } from './prepared_block.js';

/** Where prepared blocks are written: the LevelDB history (`HistoryStore`). */
export interface PreparedWriter {
  cursor(): { readonly height: number; readonly hash: Uint8Array } | null;
  writePrepared(blocks: readonly PreparedBlock[], first: boolean): Promise<void>;
}

export async function ingestPrepared(
  history: PreparedWriter,
  blocks: readonly PreparedOrRefused[],
  anchor?: GenesisAnchor,
): Promise<void> {
  const cursor = history.cursor();
  let prev = cursor ? { height: cursor.height, hash: base58Encode(cursor.hash) } : null;
  const verified: PreparedBlock[] = [];
  try {
    for (const b of blocks) {
      if ('refused' in b) throw new BlockVerificationError(b.height, b.refused.check, b.refused.detail);
      if (prev) verifyLink(b.height, b.prevHash, prev);
      else if (anchor) checkGenesisAnchor(anchor, b);
      verified.push(b);
      prev = { height: b.height, hash: b.hash };
    }
  } finally {
    if (verified.length > 0) await history.writePrepared(verified, cursor === null);
  }
}
