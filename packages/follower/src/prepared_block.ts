// A block made ready for the LevelDB history off the follow loop's thread: the fields the loop
// checks in height order (height, hash, prev_hash) and the block's rows, packed into one buffer that
// moves between threads without a copy. The rows are those `blockUpdate` writes; the first block's
// markers are the writer's to add.
import { concatBytes, utf8 } from '@nearlite/primitives';
import { DBCol, type DBColumn, type StoreUpdate } from '@nearlite/store';
import type { VerifyCheck } from '@nearlite/stream';
import type { GenesisFacts } from './genesis_anchor.js';

export interface PreparedBlock {
  readonly height: number;
  readonly hash: string;
  readonly prevHash: string;
  /** The header's `prev_height`, where it has one: whether a first block follows the genesis. */
  readonly prevHeight: number | null;
  /** A genesis block's header facts, which the first block of a history is checked by. */
  readonly genesis?: GenesisFacts;
  /** The gas its new chunks used (`blockGasUsed`), for the status line. */
  readonly gasUsed: bigint;
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

/** Where a block's rows go: a StoreUpdate (`storeRows`) or, on a preparing thread, a RowPacker. */
export interface RowSink {
  put(col: DBColumn, key: Uint8Array, value: Uint8Array): void;
  /** A row whose value is `prefix` (if any) followed by `text` in UTF-8. */
  putText(col: DBColumn, key: Uint8Array, text: string, prefix?: Uint8Array): void;
  /** A row whose value is the texts one after another in UTF-8, never joined into one string. */
  putTexts(col: DBColumn, key: Uint8Array, texts: readonly string[]): void;
}

/** The rows as puts of `update`. */
export function storeRows(update: StoreUpdate): RowSink {
  return {
    put: (col, key, value) => {
      update.put(col, key, value);
    },
    putText: (col, key, text, prefix) => {
      update.put(col, key, prefix ? concatBytes(prefix, utf8(text)) : utf8(text));
    },
    putTexts: (col, key, texts) => {
      update.put(col, key, utf8(texts.join('')));
    },
  };
}

const encoder = new TextEncoder();

/**
 * Packs rows as they are written (the layout of `PreparedBlock.rows`): a JSON text is encoded straight
 * into the packed buffer, so a block's bytes are not copied once more after encoding.
 */
export class RowPacker implements RowSink {
  private buf: Uint8Array;
  private view: DataView;
  private at = 0;

  /** `initialBytes`: the buffer's first size; it doubles as rows need. */
  constructor(initialBytes = 64 * 1024) {
    this.buf = new Uint8Array(Math.max(64, initialBytes));
    this.view = new DataView(this.buf.buffer);
  }

  private reserve(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.at + bytes));
    grown.set(this.buf.subarray(0, this.at));
    this.buf = grown;
    this.view = new DataView(grown.buffer);
  }

  private head(col: DBColumn, key: Uint8Array, room: number): void {
    this.reserve(9 + key.length + room);
    this.buf[this.at] = col.id;
    this.view.setUint32(this.at + 1, key.length, true);
    this.buf.set(key, this.at + 5);
    this.at += 5 + key.length;
  }

  put(col: DBColumn, key: Uint8Array, value: Uint8Array): void {
    this.head(col, key, value.length);
    this.view.setUint32(this.at, value.length, true);
    this.buf.set(value, this.at + 4);
    this.at += 4 + value.length;
  }

  putText(col: DBColumn, key: Uint8Array, text: string, prefix: Uint8Array = EMPTY): void {
    const lengthAt = this.valueHead(col, key, prefix.length + text.length);
    this.buf.set(prefix, this.at);
    this.at += prefix.length;
    this.text(text);
    this.view.setUint32(lengthAt, this.at - lengthAt - 4, true);
  }

  /**
   * The texts of a large value (a busy chunk, a block's state changes) encoded one by one: joined,
   * they would make a string of megabytes, which V8 puts in pages of its own, new each time.
   */
  putTexts(col: DBColumn, key: Uint8Array, texts: readonly string[]): void {
    const lengthAt = this.valueHead(col, key, 0);
    for (const text of texts) this.text(text);
    this.view.setUint32(lengthAt, this.at - lengthAt - 4, true);
  }

  /** A row's column and key, and room for `room` bytes of value; where its length goes. */
  private valueHead(col: DBColumn, key: Uint8Array, room: number): number {
    this.head(col, key, room);
    const lengthAt = this.at;
    this.at += 4;
    return lengthAt;
  }

  /** `text` in UTF-8 at the end of the rows. */
  private text(text: string): void {
    // Stream JSON is nearly all ASCII, a byte per character; the rest takes up to three.
    this.reserve(text.length);
    let r = encoder.encodeInto(text, this.buf.subarray(this.at));
    if (r.read < text.length) {
      this.reserve(text.length * 3);
      r = encoder.encodeInto(text, this.buf.subarray(this.at));
    }
    this.at += r.written;
  }

  /** The packed rows; the packer is not used after. */
  finish(): Uint8Array {
    return this.buf.subarray(0, this.at);
  }
}

const EMPTY = new Uint8Array(0);

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
