// The part of ingesting a block that needs nothing of the store: the block's own checks (its hash
// from its header, its chunks and outcomes against the header) and its rows. The link to the block
// before it is the loop's to check, in height order (`ingestPrepared`).
import {
  BlockVerificationError,
  blockGasUsed,
  type StreamerMessage,
  VerifyCheck,
  verifyStreamerMessage,
} from '@nearlite/stream';
import { genesisFactsOf } from './genesis_anchor.js';
import { writeBlockRows } from './ingest_update.js';
import { type PreparedOrRefused, RowPacker } from './prepared_block.js';

// A block's rows are sized like the last block's on this thread: neighbours are alike, an empty
// block's rows take ~1 kB and a busy one's hundreds, and every buffer is new memory (it moves to
// the loop's thread), which costs more to touch than to fill here.
let rowsHint = 16 * 1024;

export function prepareBlock(message: StreamerMessage): PreparedOrRefused {
  try {
    verifyStreamerMessage(message);
  } catch (err) {
    if (!(err instanceof BlockVerificationError)) throw err;
    return { height: err.height, refused: { check: err.check, detail: err.detail } };
  }
  const { header } = message.block;
  const packer = new RowPacker(rowsHint);
  try {
    // Encoding the rows decodes every value `checkShape` checks (hashes, keys, base64): a value that
    // fails refuses the block here, with its rows not yet anywhere but this packer.
    writeBlockRows(message, packer);
  } catch (err) {
    return { height: header.height, refused: { check: VerifyCheck.Shape, detail: (err as Error).message } };
  }
  const rows = packer.finish();
  rowsHint = Math.min(4 * 1024 * 1024, Math.max(4 * 1024, Math.ceil(rows.length * 1.25)));
  const genesis = genesisFactsOf(header);
  return {
    height: header.height,
    hash: header.hash,
    prevHash: header.prev_hash,
    prevHeight: header.prev_height ?? null,
    ...(genesis ? { genesis } : {}),
    gasUsed: blockGasUsed(message.block),
    rows,
  };
}
