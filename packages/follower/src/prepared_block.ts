// A block made ready for the LevelDB history off the follow loop's thread: the fields the loop
// checks in height order (height, hash, prev_hash) and the block's rows, packed into one buffer that
// moves between threads without a copy. The rows are those `blockUpdate` writes, minus the first
// block's marker, which only the loop knows to add.
import { DBCol, type DBColumn, type StoreUpdate } from '@nearlite/store';
import type { VerifyCheck } from '@nearlite/stream';

export interface PreparedBlock {
  readonly height: number;
  readonly hash: string;
  readonly prevHash: string;
  /** `[u8 column id][u32 key length][key][u32 value length][value]` per put, in write order. */
  readonly rows: Uint8Array;
}

/** A block the preparing thread refused: it is reported when the loop reaches its height. */
export interface RefusedBlock {
  readonly height: number;
  readonly refused: { readonly check: VerifyCheck; readonly detail: string };
}

export type PreparedOrRefused = PreparedBlock | RefusedBlock;

const COLUMNS = new Map<number, DBColumn>(Object.values(DBCol).map((c) => [c.id, c]));

export class PackError extends Error {
  override readonly name = 'PackError';
}

/** Packs the puts of `update` (a follower block writes puts only). */
export function packRows(update: StoreUpdate): Uint8Array {
  let size = 0;
  for (const op of update.ops) {
    if (op.type !== 'put') throw new PackError(`a prepared block only puts rows (column ${op.col.id})`);
    size += 9 + op.key.length + op.value.length;
  }
  if (update.refcounts.size > 0) throw new PackError('a prepared block has no refcounted rows');
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  let at = 0;
  for (const op of update.ops) {
    if (op.type !== 'put') continue;
    out[at] = op.col.id;
    view.setUint32(at + 1, op.key.length, true);
    out.set(op.key, at + 5);
    at += 5 + op.key.length;
    view.setUint32(at, op.value.length, true);
    out.set(op.value, at + 4);
    at += 4 + op.value.length;
  }
  return out;
}

/** Adds the packed rows to `update` as puts; keys and values are views of `rows`. */
export function unpackRows(rows: Uint8Array, update: StoreUpdate): void {
  const view = new DataView(rows.buffer, rows.byteOffset, rows.byteLength);
  let at = 0;
  while (at < rows.length) {
    const col = COLUMNS.get(rows[at]!);
    if (!col) throw new PackError(`unknown column id ${rows[at]} in prepared rows`);
    const keyLength = view.getUint32(at + 1, true);
    const key = rows.subarray(at + 5, at + 5 + keyLength);
    at += 5 + keyLength;
    const valueLength = view.getUint32(at, true);
    const value = rows.subarray(at + 4, at + 4 + valueLength);
    at += 4 + valueLength;
    if (at > rows.length) throw new PackError('prepared rows end inside a row');
    update.put(col, key, value);
  }
}
