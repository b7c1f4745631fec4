// Block references resolved against the history store, with nearcore's view-client error shapes.
// A follower's head is its cursor: every block it holds came from the stream as final.
import {
  type BlockColumn,
  blockIdJson,
  dbNotFound,
  queryNotFoundText,
  unavailableShard,
} from '@nearlite/chain';
import { type BlockId, type BlockReference, base58Encode, HandlerError } from '@nearlite/primitives';
import type { HistoryReader, StoredBlock } from './history_reader.js';

function notFoundText(id: BlockId, column: BlockColumn): string {
  return `DB Not Found Error: ${dbNotFound(id, column)} \n Cause: Unknown`;
}

/** The block a reference names; null when it names none this node holds whole (collected included). */
export async function lookupBlock(
  history: HistoryReader,
  ref: BlockReference,
  firstHeight: number | null,
): Promise<StoredBlock | null> {
  const b = await lookupHeader(history, ref, firstHeight);
  return b && isCollected(b, firstHeight) ? null : b;
}

/**
 * Below the tail a block is collected (its header kept), though its rows may outlive the tail's move
 * a moment; genesis too, which a follower does not keep whole.
 */
function isCollected(b: StoredBlock, firstHeight: number | null): boolean {
  return firstHeight !== null && b.height < firstHeight;
}

/**
 * The block a reference names, or for a collected one its header alone (`{"header": …}`): GC keeps
 * headers and the height index, as nearcore's does, so what reads a header (`gas_price`, the
 * protocol config) answers for a collected block as nearcore's does.
 */
export async function lookupHeader(
  history: HistoryReader,
  ref: BlockReference,
  firstHeight: number | null,
): Promise<StoredBlock | null> {
  const cursor = history.cursor();
  if (cursor === null) return null;
  let b: StoredBlock | undefined;
  if ('finality' in ref) b = await history.block(cursor.hash);
  else if ('syncCheckpoint' in ref) {
    const g = ref.syncCheckpoint === 'genesis' ? history.genesisHeight() : firstHeight;
    b = g === null ? undefined : await history.blockAt(g);
  } else {
    const id = ref.blockId;
    // No block is above 2^53, where a height is a bigint.
    if (typeof id === 'object') b = await history.block(id);
    else if (typeof id === 'number') b = await history.blockAt(id);
  }
  // A block above the cursor is not whole yet (its writer has not moved the cursor): unknown.
  return b && b.height <= cursor.height ? b : null;
}

/**
 * For block, chunk, gas_price: UNKNOWN_BLOCK with empty info; the legacy text names the column
 * nearcore's read misses (`BLOCK` for block and chunk, which read the whole block).
 */
export async function resolveBlock(
  history: HistoryReader,
  ref: BlockReference,
  firstHeight: number | null,
  column: BlockColumn = 'BLOCK HEADER',
): Promise<StoredBlock> {
  const header = await lookupHeader(history, ref, firstHeight);
  if (header && (column !== 'BLOCK' || !isCollected(header, firstHeight))) return header;
  let text = 'DB Not Found Error: BLOCK \n Cause: Unknown';
  // A collected height still names its block, which nearcore's get_block_by_height then misses.
  if ('blockId' in ref) text = notFoundText(header?.hash ?? ref.blockId, column);
  throw new HandlerError('UNKNOWN_BLOCK', {}, text);
}

/**
 * For query: a height between genesis and the first followed block is history this node does not
 * hold (GARBAGE_COLLECTED_BLOCK, as on a node whose GC passed it); anything else unknown is UNKNOWN_BLOCK.
 */
export async function resolveQueryBlock(
  history: HistoryReader,
  ref: BlockReference,
  firstHeight: number | null,
  /** The shard the query reads, for a collected block found by hash or finality. */
  shardId: () => number,
): Promise<StoredBlock> {
  const header = await lookupHeader(history, ref, firstHeight);
  if (header && !isCollected(header, firstHeight)) return header;
  const cursor = history.cursor();
  const genesis = history.genesisHeight() ?? 0;
  if (
    'blockId' in ref &&
    typeof ref.blockId === 'number' &&
    firstHeight !== null &&
    cursor !== null &&
    ref.blockId < firstHeight &&
    ref.blockId >= genesis
  ) {
    const h = ref.blockId;
    // Named by the height index, as nearcore's handle_query does; all ones where this node holds no
    // hash (heights before the first block it followed).
    const hash = header?.hash;
    throw new HandlerError(
      'GARBAGE_COLLECTED_BLOCK',
      { block_height: h, block_hash: hash ? base58Encode(hash) : '11111111111111111111111111111111' },
      `The data for block #${h} is garbage collected on this node, use an archival node to fetch historical data`,
    );
  }
  // A collected block found by hash or checkpoint: nearcore finds no chunk extra there and, since
  // ContinuousEpochSync (protocol 85), answers that the shard is not tracked.
  if (header) throw unavailableShard(shardId());
  const blockReference =
    'blockId' in ref
      ? { block_id: blockIdJson(ref.blockId) }
      : 'syncCheckpoint' in ref
        ? { sync_checkpoint: ref.syncCheckpoint }
        : ref;
  throw new HandlerError('UNKNOWN_BLOCK', { block_reference: blockReference }, queryNotFoundText(ref));
}
