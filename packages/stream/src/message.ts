// NEAR's block stream: one `StreamerMessage` per block, as nearcore's indexer writes it (snake_case
// JSON). NEAR Lake stores it split in `block.json` and `shard_<id>.json`; neardata serves it whole.
// Views are kept as the source sent them (unknown fields of newer protocol versions included), so the
// types name only the fields nearlite reads.

/** A JSON object as parsed, never re-shaped: stored and served byte-for-byte where possible. */
export type JsonObject = { [key: string]: unknown };

export interface BlockHeaderJson extends JsonObject {
  height: number;
  prev_height?: number | null;
  hash: string;
  prev_hash: string;
  epoch_id: string;
  next_epoch_id: string;
  timestamp_nanosec: string;
  chunk_mask: boolean[];
  gas_price: string;
  latest_protocol_version: number;
}

export interface BlockViewJson extends JsonObject {
  author: string;
  header: BlockHeaderJson;
  chunks: JsonObject[];
}

export interface ExecutionOutcomeWithIdJson extends JsonObject {
  proof: JsonObject[];
  block_hash: string;
  id: string;
  outcome: JsonObject & { receipt_ids: string[]; executor_id: string; status: unknown };
}

export interface IndexerTransactionWithOutcome extends JsonObject {
  transaction: JsonObject & { hash: string; signer_id: string; receiver_id: string };
  outcome: { execution_outcome: ExecutionOutcomeWithIdJson; receipt: JsonObject | null };
}

export interface ReceiptViewJson extends JsonObject {
  predecessor_id: string;
  receiver_id: string;
  receipt_id: string;
  receipt: JsonObject;
}

export interface IndexerChunk extends JsonObject {
  author: string;
  header: JsonObject & { chunk_hash: string; shard_id: number; height_included?: number };
  transactions: IndexerTransactionWithOutcome[];
  /** The chunk's outgoing receipts of the previous application (the RPC `chunk` result's `receipts`). */
  receipts: ReceiptViewJson[];
  local_receipts?: ReceiptViewJson[];
  /** Receipts the chunk ran right after the receipt that made them (newer nearcore only). */
  instant_receipts?: ReceiptViewJson[];
}

export interface IndexerExecutionOutcomeWithReceipt extends JsonObject {
  execution_outcome: ExecutionOutcomeWithIdJson;
  receipt: ReceiptViewJson;
  /** Present in neardata's messages; nearcore's Lake files omit it. */
  tx_hash?: string | null;
}

export interface StateChangeWithCauseJson extends JsonObject {
  cause: JsonObject & { type: string };
  type: string;
  change: JsonObject & { account_id: string };
}

export interface IndexerShard extends JsonObject {
  shard_id: number;
  chunk: IndexerChunk | null;
  receipt_execution_outcomes: IndexerExecutionOutcomeWithReceipt[];
  state_changes: StateChangeWithCauseJson[];
}

export interface StreamerMessage {
  block: BlockViewJson;
  shards: IndexerShard[];
}
