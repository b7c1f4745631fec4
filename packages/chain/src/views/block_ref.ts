// Resolving a block reference the way nearcore's view client does, with its error shapes.
import { type BlockId, type BlockReference, base58Encode, HandlerError } from '@nearlite/primitives';
import type { BlockHeader } from '../block_header.js';
import type { ChainHandle } from '../chain_handle.js';

function notFoundText(id: BlockId): string {
  return typeof id === 'number'
    ? `DB Not Found Error: BLOCK HEIGHT: ${id} \n Cause: Unknown`
    : `DB Not Found Error: BLOCK HEADER: ${base58Encode(id)} \n Cause: Unknown`;
}

export function blockIdJson(id: BlockId): number | string {
  return typeof id === 'number' ? id : base58Encode(id);
}

/** Finds the header a reference names; null when it names a block the node never had. */
export function lookupBlock(chain: ChainHandle, ref: BlockReference): BlockHeader | null {
  const cs = chain.chainStore;
  if ('finality' in ref) {
    const head = chain.headHeader();
    if (ref.finality === 'optimistic') return head;
    const target = ref.finality === 'near-final' ? head.rest.lastDsFinalBlock : head.rest.lastFinalBlock;
    return cs.blockHeader(target) ?? chain.chainStore.blockHeader(chain.genesisHash) ?? null;
  }
  if ('syncCheckpoint' in ref) {
    if (ref.syncCheckpoint === 'genesis') return cs.blockHeader(chain.genesisHash) ?? null;
    const tail = cs.tail();
    const hash = tail === null ? undefined : cs.blockHashByHeight(tail);
    return hash ? (cs.blockHeader(hash) ?? null) : null;
  }
  const id = ref.blockId;
  const hash = typeof id === 'number' ? cs.blockHashByHeight(id) : id;
  const header = hash ? cs.blockHeader(hash) : undefined;
  if (!header) return null;
  // Below the tail only genesis is kept: a block being collected is gone already.
  const tail = cs.tail();
  const height = header.lite.height;
  if (tail !== null && height < tail && height !== chain.genesis.config.genesisHeight) return null;
  return header;
}

/** True when a height-or-hash names a block below the GC tail. */
function isCollected(chain: ChainHandle, ref: BlockReference): { height: number } | null {
  if (!('blockId' in ref) || typeof ref.blockId !== 'number') return null;
  const tail = chain.chainStore.tail();
  const head = chain.head().height;
  if (
    tail !== null &&
    ref.blockId < tail &&
    ref.blockId >= chain.genesis.config.genesisHeight &&
    ref.blockId <= head
  ) {
    return { height: ref.blockId };
  }
  return null;
}

/** For block, chunk, gas_price, changes: UNKNOWN_BLOCK with empty info. */
export function resolveBlock(chain: ChainHandle, ref: BlockReference): BlockHeader {
  const h = lookupBlock(chain, ref);
  if (h) return h;
  const text = 'blockId' in ref ? notFoundText(ref.blockId) : 'DB Not Found Error: BLOCK \n Cause: Unknown';
  throw new HandlerError('UNKNOWN_BLOCK', {}, text);
}

/** For query: GARBAGE_COLLECTED_BLOCK first, then UNKNOWN_BLOCK with the reference in info. */
export function resolveQueryBlock(chain: ChainHandle, ref: BlockReference): BlockHeader {
  const h = lookupBlock(chain, ref);
  if (h) return h;
  const gc = isCollected(chain, ref);
  if (gc) {
    throw new HandlerError(
      'GARBAGE_COLLECTED_BLOCK',
      { block_height: gc.height, block_hash: '11111111111111111111111111111111' },
      `The data for block #${gc.height} is garbage collected on this node, use an archival node to fetch historical data`,
    );
  }
  const blockReference =
    'blockId' in ref
      ? { block_id: blockIdJson(ref.blockId) }
      : 'syncCheckpoint' in ref
        ? { sync_checkpoint: ref.syncCheckpoint }
        : ref;
  const text = 'blockId' in ref ? notFoundText(ref.blockId) : 'DB Not Found Error: BLOCK \n Cause: Unknown';
  throw new HandlerError('UNKNOWN_BLOCK', { block_reference: blockReference }, text);
}
