// The row a repair keeps while it works. A repair of a long chain goes in many batches (a single one
// would hold every deleted row in memory at once), so a store can be left part way through one: the
// row says what the repair is doing, every check refuses the store while it is there, and the next
// repair reads its target from it and goes on. The last batch removes it.
import type { CryptoHash } from '@nearlite/primitives';
import { asciiKey, DBCol, readU64be, type Store, u64be } from '@nearlite/store';

export const REPAIR_KEY = asciiKey('REPAIR');

export type RepairTarget =
  /** Every block above `height` (whose hash is `hash`) goes; the head moves there. */
  | {
      readonly kind: 'rollback';
      readonly headHeight: number;
      readonly height: number;
      readonly hash: CryptoHash;
    }
  /** Nothing whole is left: every row goes, and the next start builds the chain from genesis.json. */
  | { readonly kind: 'wipe'; readonly headHeight: number };

const ROLLBACK = 0;
const WIPE = 1;

export function encodeRepairTarget(t: RepairTarget): Uint8Array {
  if (t.kind === 'wipe') {
    const out = new Uint8Array(9);
    out[0] = WIPE;
    out.set(u64be(t.headHeight), 1);
    return out;
  }
  const out = new Uint8Array(49);
  out[0] = ROLLBACK;
  out.set(u64be(t.headHeight), 1);
  out.set(u64be(t.height), 9);
  out.set(t.hash, 17);
  return out;
}

export function readRepairTarget(store: Store): RepairTarget | null {
  const b = store.get(DBCol.BlockMisc, REPAIR_KEY);
  if (!b) return null;
  if (b[0] === WIPE && b.length === 9) return { kind: 'wipe', headHeight: Number(readU64be(b, 1)) };
  if (b[0] === ROLLBACK && b.length === 49)
    return {
      kind: 'rollback',
      headHeight: Number(readU64be(b, 1)),
      height: Number(readU64be(b, 9)),
      hash: b.slice(17) as CryptoHash,
    };
  // Never guessed at: a wrong guess could delete every block.
  throw new Error(
    `the store's repair record (BlockMisc REPAIR, ${b.length} bytes) is not one this version writes`,
  );
}

/** What the stopped repair was doing, for messages. */
export function repairTargetText(t: RepairTarget): string {
  return t.kind === 'rollback'
    ? `rolling the store back to #${t.height}`
    : 'deleting every block to start again from genesis';
}
