// Block references resolved against the history store, with nearcore's view-client error shapes.
// A follower's head is its cursor: every block it holds came from the stream as final.
import { type BlockColumn, blockIdJson, dbNotFound, queryNotFoundText } from '@nearlite/chain';
import { type BlockId, type BlockReference, HandlerError } from '@nearlite/primitives';
import type { HistoryReader, StoredBlock } from './history_reader.js';

function notFoundText(id: BlockId, column: BlockColumn): string {
  return `DB Not Found Error: ${dbNotFound(id, column)} \n Cause: Unknown`;
}

export async function lookupBlock(
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
    // Below the tail a block is collected, though its rows may outlive the tail's move a moment.
    if (b && firstHeight !== null && b.height < firstHeight) b = undefined;
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
  const b = await lookupBlock(history, ref, firstHeight);
  if (b) return b;
  const text =
    'blockId' in ref ? notFoundText(ref.blockId, column) : 'DB Not Found Error: BLOCK \n Cause: Unknown';
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
): Promise<StoredBlock> {
  const b = await lookupBlock(history, ref, firstHeight);
  if (b) return b;
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
    throw new HandlerError(
      'GARBAGE_COLLECTED_BLOCK',
      { block_height: h, block_hash: '11111111111111111111111111111111' },
      `The data for block #${h} is garbage collected on this node, use an archival node to fetch historical data`,
    );
  }
  const blockReference =
    'blockId' in ref
      ? { block_id: blockIdJson(ref.blockId) }
      : 'syncCheckpoint' in ref
        ? { sync_checkpoint: ref.syncCheckpoint }
        : ref;
  throw new HandlerError('UNKNOWN_BLOCK', { block_reference: blockReference }, queryNotFoundText(ref));
}
