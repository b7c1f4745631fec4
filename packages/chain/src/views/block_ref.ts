// Resolving a block reference the way nearcore's view client does, with its error shapes.
import {
  type BlockId,
  type BlockReference,
  base58Encode,
  type CryptoHash,
  HandlerError,
  ZERO_HASH,
} from '@nearlite/primitives';
import type { BlockHeader } from '../block_header.js';
import type { ChainHandle } from '../chain_handle.js';

/**
 * The DBNotFoundErr message of nearcore's chain store (core/store/src/adapter/chain_store.rs): a height
 * misses in the BlockHeight column; a hash misses in the Block column for reads of the whole block
 * (get_block: `block`, `chunk`) and in the BlockHeader column otherwise.
 */
export type BlockColumn = 'BLOCK' | 'BLOCK HEADER';

export function dbNotFound(id: BlockId, column: BlockColumn): string {
  return typeof id === 'object' ? `${column}: ${base58Encode(id)}` : `BLOCK HEIGHT: ${id}`;
}

function notFoundText(id: BlockId, column: BlockColumn): string {
  return `DB Not Found Error: ${dbNotFound(id, column)} \n Cause: Unknown`;
}

export function blockIdJson(id: BlockId): number | bigint | string {
  return typeof id === 'object' ? base58Encode(id) : id;
}

/** The hash of the block `id` names, if the chain store has one there (no block is above 2^53). */
export function blockHashOf(chain: ChainHandle, id: BlockId): CryptoHash | undefined {
  if (typeof id === 'object') return id;
  return typeof id === 'number' ? chain.chainStore.blockHashByHeight(id) : undefined;
}

/**
 * The final [0] and near-final [1] headers of a head, by the head's header object: headers are the
 * chain store's cached objects, so every `final` read between two blocks finds its answer here.
 */
const finalOf = new WeakMap<BlockHeader, (BlockHeader | undefined)[]>();

function finalHeader(chain: ChainHandle, head: BlockHeader, nearFinal: boolean): BlockHeader | null {
  let known = finalOf.get(head);
  if (known === undefined) {
    known = [];
    finalOf.set(head, known);
  }
  const slot = nearFinal ? 1 : 0;
  const hit = known[slot];
  if (hit) return hit;
  const cs = chain.chainStore;
  const found = cs.blockHeader(nearFinal ? head.rest.lastDsFinalBlock : head.rest.lastFinalBlock);
  if (!found) return cs.blockHeader(chain.genesisHash) ?? null;
  known[slot] = found;
  return found;
}

/** Finds the header a reference names; null when it names a block the node never had. */
export function lookupBlock(chain: ChainHandle, ref: BlockReference): BlockHeader | null {
  const cs = chain.chainStore;
  if ('finality' in ref) {
    const head = chain.headHeader();
    if (ref.finality === 'optimistic') return head;
    return finalHeader(chain, head, ref.finality === 'near-final');
  }
  if ('syncCheckpoint' in ref) {
    if (ref.syncCheckpoint === 'genesis') return cs.blockHeader(chain.genesisHash) ?? null;
    const tail = cs.tail();
    const hash = tail === null ? undefined : cs.blockHashByHeight(tail);
    return hash ? (cs.blockHeader(hash) ?? null) : null;
  }
  const header = headerOf(chain, ref.blockId);
  return header && !belowTail(chain, header) ? header : null;
}

/**
 * The header a reference names, its block collected or not: GC keeps headers and the height index,
 * as nearcore's does, and the methods that read a header alone (`gas_price`, the protocol config,
 * light clients' proofs) answer for a collected block as nearcore's do.
 */
export function lookupHeader(chain: ChainHandle, ref: BlockReference): BlockHeader | null {
  return 'blockId' in ref ? (headerOf(chain, ref.blockId) ?? null) : lookupBlock(chain, ref);
}

function headerOf(chain: ChainHandle, id: BlockId): BlockHeader | undefined {
  const hash = blockHashOf(chain, id);
  return hash ? chain.chainStore.blockHeader(hash) : undefined;
}

/** Below the tail only genesis is kept whole: a block being collected is gone already. */
function belowTail(chain: ChainHandle, header: BlockHeader): boolean {
  return isCollected(chain, header) && header.lite.height !== chain.genesis.config.genesisHeight;
}

/** Whether GC has taken the block's state: below the tail, genesis included. */
export function isCollected(chain: ChainHandle, header: BlockHeader): boolean {
  const tail = chain.chainStore.tail();
  return tail !== null && header.lite.height < tail;
}

/**
 * For block and chunk (`BLOCK`: the whole block) and gas_price (`BLOCK HEADER`: its header alone):
 * UNKNOWN_BLOCK with empty info (RpcBlockError's legacy text). A collected block's height still names
 * its hash, which nearcore's get_block_by_height then misses in the Block column.
 */
export function resolveBlock(
  chain: ChainHandle,
  ref: BlockReference,
  column: BlockColumn = 'BLOCK HEADER',
): BlockHeader {
  const h = column === 'BLOCK' ? lookupBlock(chain, ref) : lookupHeader(chain, ref);
  if (h) return h;
  let text = 'DB Not Found Error: BLOCK \n Cause: Unknown';
  if ('blockId' in ref) text = notFoundText(headerOf(chain, ref.blockId)?.hash ?? ref.blockId, column);
  throw new HandlerError('UNKNOWN_BLOCK', {}, text);
}

/**
 * For changes, block_effects and EXPERIMENTAL_changes_in_block: UNKNOWN_BLOCK whose legacy `data` is
 * the cause itself, as From<RpcStateChangesError> for RpcError puts the serialized error there
 * (nearcore chain/jsonrpc-primitives/src/types/changes.rs).
 */
export function resolveChangesBlock(chain: ChainHandle, ref: BlockReference): BlockHeader {
  const h = lookupBlock(chain, ref);
  if (h) return h;
  throw changesUnknownBlock();
}

/**
 * A changes view's block, held from GC while its rows are read across awaits (`StatePins`): resolved
 * and pinned in one synchronous step, so an answer is whole or is UNKNOWN_BLOCK, as for a block GC
 * has taken, never a part of the block's changes. Release the pin once read.
 */
export function holdChangesBlock(chain: ChainHandle, ref: BlockReference): [BlockHeader, () => void] {
  const header = resolveChangesBlock(chain, ref);
  const release = chain.statePins.hold(header.lite.height);
  // Null: GC is writing the block away right now.
  if (!release) throw changesUnknownBlock();
  return [header, release];
}

export function changesUnknownBlock(): HandlerError {
  return new HandlerError('UNKNOWN_BLOCK', {}, { name: 'UNKNOWN_BLOCK', info: {} });
}

/**
 * For query, as nearcore's handle_query: a height below GC's stop height (`gcStop`, null on an
 * archival node) is GARBAGE_COLLECTED_BLOCK before anything is looked up, naming the hash the height
 * index holds (all ones at a height with no block); then the block's header, collected or not (the
 * caller refuses a collected block's state); no header is UNKNOWN_BLOCK with the reference in info.
 */
export function resolveQueryBlock(
  chain: ChainHandle,
  ref: BlockReference,
  gcStop: number | null,
): BlockHeader {
  if ('blockId' in ref && typeof ref.blockId === 'number' && gcStop !== null && ref.blockId < gcStop) {
    throw garbageCollected(ref.blockId, chain.chainStore.blockHashByHeight(ref.blockId) ?? ZERO_HASH);
  }
  const h = lookupHeader(chain, ref);
  if (h) return h;
  const blockReference =
    'blockId' in ref
      ? { block_id: blockIdJson(ref.blockId) }
      : 'syncCheckpoint' in ref
        ? { sync_checkpoint: ref.syncCheckpoint }
        : ref;
  throw new HandlerError('UNKNOWN_BLOCK', { block_reference: blockReference }, queryNotFoundText(ref));
}

function garbageCollected(height: number, hash: CryptoHash): HandlerError {
  return new HandlerError(
    'GARBAGE_COLLECTED_BLOCK',
    { block_height: height, block_hash: base58Encode(hash) },
    `The data for block #${height} is garbage collected on this node, use an archival node to fetch historical data`,
  );
}

export function unavailableShard(shardId: number): HandlerError {
  return new HandlerError(
    'UNAVAILABLE_SHARD',
    { requested_shard_id: shardId },
    `The node does not track the shard ID ${shardId}`,
  );
}

/**
 * `query`'s legacy text for an unknown block, which nearcore's query answer spells itself
 * (chain/jsonrpc/src/lib.rs, `query`): by hash without the " \n Cause: Unknown" its other texts carry.
 */
export function queryNotFoundText(ref: BlockReference): string {
  if (!('blockId' in ref)) return 'DB Not Found Error: BLOCK \n Cause: Unknown';
  return typeof ref.blockId !== 'object'
    ? notFoundText(ref.blockId, 'BLOCK HEADER')
    : `DB Not Found Error: ${dbNotFound(ref.blockId, 'BLOCK HEADER')}`;
}
