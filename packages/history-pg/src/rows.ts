// The rows a batch of blocks writes, grouped by shard. Objects are stored as the JSON the stream
// published (as the LevelDB history stores them); state changes become state history rows of the
// shard that holds the key's account. Rows repeated within a batch keep the last one written, as a
// LevelDB batch would, so one INSERT … ON CONFLICT never meets the same key twice.

import { stateChangeWrite } from '@nearlite/follower';
import { base58Decode, stringifyJson, toHex } from '@nearlite/primitives';
import { chunkViewReceipts, type StreamerMessage } from '@nearlite/stream';

export interface JsonRow {
  readonly id: Uint8Array;
  /** The first height that carried it: readers know it from then. */
  readonly height: number;
  /** The last height that carried it (`height` when absent): GC collects it with that block. */
  readonly lastHeight?: number;
  readonly json: string;
}

export interface ChunkRow {
  readonly blockHash: Uint8Array;
  readonly shardId: number;
  readonly height: number;
  readonly chunkHash: Uint8Array;
  readonly json: string;
}

export interface StateChangesRow {
  readonly blockHash: Uint8Array;
  readonly shardOrd: number;
  readonly height: number;
  readonly json: string;
}

export interface StateRow {
  readonly key: Uint8Array;
  readonly height: number;
  readonly value: Uint8Array | null;
}

export class ShardRows {
  readonly chunks: ChunkRow[] = [];
  readonly stateChanges: StateChangesRow[] = [];
  readonly transactions = new Map<string, JsonRow>();
  readonly outcomes = new Map<string, JsonRow>();
  readonly receipts = new Map<string, JsonRow>();
  readonly state = new Map<string, StateRow>();

  get empty(): boolean {
    return (
      this.chunks.length === 0 &&
      this.stateChanges.length === 0 &&
      this.transactions.size === 0 &&
      this.outcomes.size === 0 &&
      this.receipts.size === 0 &&
      this.state.size === 0
    );
  }

  putState(row: StateRow): void {
    this.state.set(`${toHex(row.key)}:${row.height}`, row);
  }
}

/**
 * The first height a row was written at stays: a receipt seen in a chunk is known from then. The
 * last one is kept too: a receipt listed in one block and executed in a later one is collected with
 * the later block, as the LevelDB history (which deletes by the outcome ids of a block) collects it.
 */
function putJson(map: Map<string, JsonRow>, row: JsonRow): void {
  const k = toHex(row.id);
  const had = map.get(k);
  const last = (r: JsonRow) => r.lastHeight ?? r.height;
  map.set(
    k,
    had
      ? { ...row, height: Math.min(had.height, row.height), lastHeight: Math.max(last(had), last(row)) }
      : row,
  );
}

/** One row per id over several shards' rows (a receipt shows up in more than one shard's list). */
export function mergeJsonRows(maps: readonly ReadonlyMap<string, JsonRow>[]): JsonRow[] {
  if (maps.length === 1) return [...maps[0]!.values()];
  const out = new Map<string, JsonRow>();
  for (const m of maps) for (const row of m.values()) putJson(out, row);
  return [...out.values()];
}

export interface BlockRow {
  readonly height: number;
  readonly hash: Uint8Array;
  readonly json: string;
}

export interface BatchRows {
  readonly blocks: BlockRow[];
  readonly shards: Map<number, ShardRows>;
}

/**
 * Splits a batch of blocks into meta rows (blocks) and per-shard rows. `shardOfKey` names the shard
 * whose database keeps a trie key's history.
 */
export function batchRows(
  messages: readonly StreamerMessage[],
  shardOfKey: (key: Uint8Array) => number,
): BatchRows {
  const blocks: BlockRow[] = [];
  const shards = new Map<number, ShardRows>();
  const at = (shardId: number) => {
    let s = shards.get(shardId);
    if (!s) {
      s = new ShardRows();
      shards.set(shardId, s);
    }
    return s;
  };
  for (const message of messages) {
    const { block } = message;
    const height = block.header.height;
    const hash = base58Decode(block.header.hash);
    blocks.push({ height, hash, json: stringifyJson(block) });
    message.shards.forEach((shard, ord) => {
      const rows = at(shard.shard_id);
      const chunk = shard.chunk;
      if (chunk) {
        rows.chunks.push({
          blockHash: hash,
          shardId: chunk.header.shard_id,
          height,
          chunkHash: base58Decode(chunk.header.chunk_hash),
          json: stringifyJson({
            author: chunk.author,
            header: chunk.header,
            transactions: chunk.transactions.map((t) => t.transaction),
            receipts: chunkViewReceipts(chunk),
          }),
        });
        for (const t of chunk.transactions) {
          const id = base58Decode(t.transaction.hash);
          putJson(rows.transactions, { id, height, json: stringifyJson(t.transaction) });
          putJson(rows.outcomes, { id, height, json: stringifyJson(t.outcome.execution_outcome) });
        }
        // A yield the chunk parked has no outcome yet, but EXPERIMENTAL_receipt answers it (nearcore
        // stores instant receipts as it runs them).
        for (const list of [chunk.receipts, chunk.instant_receipts ?? []])
          for (const r of list)
            putJson(rows.receipts, { id: base58Decode(r.receipt_id), height, json: stringifyJson(r) });
      }
      for (const r of shard.receipt_execution_outcomes) {
        const id = base58Decode(r.receipt.receipt_id);
        putJson(rows.receipts, { id, height, json: stringifyJson(r.receipt) });
        putJson(rows.outcomes, { id, height, json: stringifyJson(r.execution_outcome) });
      }
      rows.stateChanges.push({
        blockHash: hash,
        shardOrd: ord,
        height,
        json: stringifyJson(shard.state_changes),
      });
      for (const c of shard.state_changes) {
        const w = stateChangeWrite(c);
        if (w) at(shardOfKey(w.key)).putState({ key: w.key, height, value: w.value });
      }
    });
  }
  return { blocks, shards };
}
