// The part of ingesting a block that needs nothing of the store: the block's own checks (its hash
// from its header, its chunks and outcomes against the header) and its rows. The link to the block
// before it is the loop's to check, in height order (`ingestPrepared`).
import { BlockVerificationError, type StreamerMessage, verifyStreamerMessage } from '@nearlite/stream';
import { checkShape } from './check_shape.js';
import { writeBlockRows } from './ingest_update.js';
import { type PreparedOrRefused, RowPacker } from './prepared_block.js';

export function prepareBlock(message: StreamerMessage): PreparedOrRefused {
  try {
    verifyStreamerMessage(message);
    checkShape(message);
  } catch (err) {
    if (!(err instanceof BlockVerificationError)) throw err;
    return { height: err.height, refused: { check: err.check, detail: err.detail } };
  }
  const { header } = message.block;
  const rows = new RowPacker();
  writeBlockRows(message, false, rows);
  return {
    height: header.height,
    hash: header.hash,
    prevHash: header.prev_hash,
    rows: rows.finish(),
  };
}
