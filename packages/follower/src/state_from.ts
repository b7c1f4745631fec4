// Where a history's state begins. A follower's state is the genesis records plus every change it
// followed; when its source begins after the genesis (a window of blocks, a non-archival source),
// the changes between them are not held, and a key that no followed block touched cannot be told:
// its genesis row, or no row at all, says nothing of what it held when following began. Such a
// history records, with its first block, the height from which it holds every change (`stateFrom`);
// a read is answered only from a row at or above it, and anything else is StateNotHeld, which the
// read RPC sends to its upstream or answers as an error, never as a stale or absent value.
import { HandlerError } from '@nearlite/primitives';

/**
 * The height from which a history holds every state change, fixed when its first block is written:
 * null when that block follows the genesis (the genesis records and the followed changes are the
 * whole state), else the first block's own height.
 */
export function stateFromOf(
  genesisHeight: number | null,
  first: { readonly height: number; readonly prevHeight: number | null },
): number | null {
  return genesisHeight !== null && followsGenesis(genesisHeight, first) ? null : first.height;
}

/**
 * Whether a block is the genesis block, its child, or names the genesis block as its parent (the
 * heights between were skipped): a history from it misses no change.
 */
export function followsGenesis(
  genesisHeight: number,
  b: { readonly height: number; readonly prevHeight: number | null },
): boolean {
  return b.height <= genesisHeight + 1 || b.prevHeight === genesisHeight;
}

/** `stateFromOf` for a stored first block, from its view's header (the writer's own, or an older one). */
export function stateFromOfBlockView(
  genesisHeight: number | null,
  height: number,
  json: string,
): number | null {
  const { header } = JSON.parse(json) as { header: { prev_height?: number | null } };
  return stateFromOf(genesisHeight, { height, prevHeight: header.prev_height ?? null });
}

/** A state read this history cannot answer: the key's value when following began is not held. */
export class StateNotHeld extends HandlerError {
  constructor(
    readonly stateFrom: number,
    readonly height: number,
  ) {
    const message = `the state at block #${height} is not held here: this node follows a block stream from block #${stateFrom} on and holds only the state changed since, and was started without --upstream-rpc to ask for the rest; follow the chain from its genesis, or ask an archival node`;
    super('INTERNAL_ERROR', { error_message: message }, message);
  }
}

/**
 * A key's value at `height` from its newest row at or below it (`rowHeight`, null: the key has no
 * row by then), when `stateFrom` lets that row answer.
 */
export function heldValue<V>(
  stateFrom: number | null,
  height: number,
  rowHeight: number | null,
  value: V,
): V {
  if (stateFrom !== null && (rowHeight === null || rowHeight < stateFrom))
    throw new StateNotHeld(stateFrom, height);
  return value;
}

/** A scan cannot be answered where any key's state may be missing: it would list too few. */
export function heldScan(stateFrom: number | null, height: number): void {
  if (stateFrom !== null) throw new StateNotHeld(stateFrom, height);
}
