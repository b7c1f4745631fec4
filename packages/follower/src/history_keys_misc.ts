// The FollowerMisc rows of the LevelDB history: the cursor, the first followed height, the genesis
// height, the height the state is held from, how far GC's deletions have gone and the flat-state marker.
import { concatBytes } from '@nearlite/primitives';
import { asciiKey, u64be } from '@nearlite/store';
import type { Cursor } from './history_reader.js';

export const CURSOR_KEY = asciiKey('cursor');
export const GENESIS_KEY = asciiKey('genesis');
export const FIRST_KEY = asciiKey('first');
/**
 * The height from which every state change is held (state_from.ts), written with the first block when
 * it does not follow the genesis; unlike FIRST_KEY, GC never moves it.
 */
export const STATE_FROM_KEY = asciiKey('state_from');
/** The height below which GC has deleted every row (gc.ts); absent: the first height. */
export const GC_DONE_KEY = asciiKey('gc_done');
/** Present when StateHistoryFlat was written from the genesis state on (flat_state.ts). */
export const FLAT_KEY = asciiKey('flat');

export function encodeCursor(c: Cursor): Uint8Array {
  return concatBytes(u64be(c.height), c.hash);
}

/** A stored block row is this prefix (u64be height) ‖ the block view JSON. */
export function blockRowPrefix(height: number): Uint8Array {
  return u64be(height);
}
