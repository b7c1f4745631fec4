// The column registry. Every stored key is `[column id] ‖ column key`; ids are never reused (a test
// checks uniqueness). Integers inside keys are u64 big-endian so byte order is numeric order.
// `gc` says what the retention policy does with a column, and GC reads nothing else: 'keep' rows are
// never collected, 'refcount' rows die when their count reaches zero, and a `{by}` rule names how a
// row is found from the block being collected, so a new column cannot be forgotten by GC.

/** How GC finds a column's rows from a collected block. */
export type GcKey =
  /** block hash */
  | 'block'
  /** block hash ‖ u64be shard */
  | 'blockShard'
  /** block hash ‖ anything */
  | 'blockPrefix'
  /** u64be height */
  | 'height'
  /** a transaction hash or receipt id listed in the block's OutcomeIds */
  | 'outcomeId'
  /** outcome id ‖ block hash */
  | 'outcomeIdBlock'
  /** a chunk hash named by the block's ChunkHashesByBlock */
  | 'chunkHash';

export interface BlockRetention {
  readonly by: GcKey;
  /** The genesis block's row outlives GC: the chain is anchored there. */
  readonly keepGenesis?: true;
  /**
   * GC leaves the row, as nearcore's never collects headers nor the height index: a collected
   * height still names its block (GARBAGE_COLLECTED_BLOCK with its hash), and light clients are
   * still given old blocks' headers and proofs. A rollback deletes it with its block.
   */
  readonly outlivesGc?: true;
}

export interface ColumnSpec {
  readonly id: number;
  /** Rows are written once and never rewritten (safe to cache forever). */
  readonly insertOnly: boolean;
  /** Values carry a trailing i64 LE reference count, folded at commit time. */
  readonly refcounted: boolean;
  readonly gc: BlockRetention | 'refcount' | 'keep';
  /**
   * Each key is the sha256 of its row's value (without a count): a row read from LevelDB is checked
   * against it, since LevelDB verifies no checksum and a damaged table returns altered bytes.
   */
  readonly contentAddressed?: true;
  readonly doc: string;
}

export const DBCol = {
  DbVersion: {
    id: 0,
    insertOnly: false,
    refcounted: false,
    gc: 'keep',
    doc: "'version' | 'kind' → metadata",
  },
  BlockMisc: {
    id: 1,
    insertOnly: false,
    refcounted: false,
    gc: 'keep',
    doc: 'head, final head, tail, genesis pointers, a repair under way, the transactions of chunks made ahead',
  },
  BlockHeader: {
    id: 2,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'block', keepGenesis: true, outlivesGc: true },
    doc: 'block hash → header',
  },
  Block: {
    id: 3,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'block', keepGenesis: true },
    doc: 'block hash → body (chunk headers)',
  },
  BlockHeight: {
    id: 4,
    insertOnly: false,
    refcounted: false,
    gc: { by: 'height', keepGenesis: true, outlivesGc: true },
    doc: 'u64be height → canonical hash',
  },
  Chunks: {
    id: 5,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'chunkHash', keepGenesis: true },
    doc: 'chunk hash → chunk',
  },
  ChunkHashesByBlock: {
    id: 6,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'blockShard', keepGenesis: true },
    doc: 'block ‖ u64be shard → chunk hash',
  },
  ChunkExtra: {
    id: 7,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'blockShard', keepGenesis: true },
    doc: 'block ‖ u64be shard → post-state',
  },
  State: {
    id: 8,
    insertOnly: false,
    refcounted: true,
    gc: 'refcount',
    contentAddressed: true,
    doc: 'trie node or value hash → bytes ‖ rc',
  },
  FlatState: { id: 9, insertOnly: false, refcounted: false, gc: 'keep', doc: 'trie key → value at head' },
  Transactions: {
    id: 10,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'outcomeId' },
    doc: 'tx hash → signed tx',
  },
  Receipts: {
    id: 11,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'outcomeId' },
    doc: 'receipt id → receipt',
  },
  TransactionResultForBlock: {
    id: 12,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'outcomeIdBlock' },
    doc: 'outcome id ‖ block → outcome with proof',
  },
  OutcomeIds: {
    id: 13,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'blockShard' },
    doc: 'block ‖ u64be shard → outcome ids',
  },
  StateChanges: {
    id: 14,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'blockPrefix' },
    doc: 'block ‖ trie key (accounts, code, access keys, contract data) → changes',
  },
  OutgoingReceipts: {
    id: 15,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'blockShard' },
    doc: 'block ‖ u64be receiving shard → receipts this block produced for that shard, applied in the next block',
  },
  OutgoingReceiptIds: {
    id: 23,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'blockShard' },
    doc: "block ‖ u64be sending shard → ids of the receipts its chunk made, in order: the next chunk's prev_outgoing_receipts",
  },
  TrieChanges: {
    id: 16,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'blockShard' },
    doc: 'block ‖ u64be shard → trie deletions applied when the block is collected',
  },
  BlockMerkleTree: {
    id: 18,
    insertOnly: true,
    refcounted: false,
    // Kept, as in nearcore: light-client block proofs reach back to any block since genesis.
    gc: 'keep',
    doc: 'block hash → partial merkle tree',
  },
  TransactionBlock: {
    id: 19,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'outcomeId' },
    doc: 'tx hash → block hash whose chunk included it',
  },
  ReceiptBlock: {
    id: 20,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'outcomeId' },
    doc: 'receipt id → block that executed it',
  },
  BlockView: {
    id: 21,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'block', keepGenesis: true },
    doc: 'block hash → the `block` RPC result as UTF-8 JSON, written with the block',
  },
  BlockOrdinal: {
    id: 22,
    insertOnly: true,
    refcounted: false,
    gc: 'keep',
    doc: 'u64be block ordinal → canonical block hash, for light-client block proofs',
  },
  // A follower's history store (@nearlite/follower): blocks as the stream published them, and state
  // as history. Ids from 40 leave room for the producer's own columns.
  FollowerMisc: {
    id: 40,
    insertOnly: false,
    refcounted: false,
    gc: 'keep',
    doc: "'cursor' → last ingested block (u64be height ‖ hash); 'first' → first followed height; 'genesis' → genesis height",
  },
  StreamBlock: {
    id: 41,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'block', keepGenesis: true },
    doc: 'block hash → the block view JSON as the stream published it',
  },
  StreamBlockHeight: {
    id: 42,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'height' },
    doc: 'u64be height → block hash',
  },
  StreamChunk: {
    id: 43,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'blockShard' },
    doc: 'block hash ‖ u64be shard → the `chunk` view JSON (author, header, transactions, receipts)',
  },
  StreamChunkHash: {
    id: 44,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'chunkHash' },
    doc: 'chunk hash → block hash ‖ u64be shard',
  },
  StreamOutcome: {
    id: 45,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'outcomeId' },
    doc: 'transaction hash or receipt id → its outcome JSON (`ExecutionOutcomeWithIdView`)',
  },
  StreamTransaction: {
    id: 46,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'outcomeId' },
    doc: 'transaction hash → the transaction view JSON',
  },
  StreamReceipt: {
    id: 47,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'outcomeId' },
    doc: 'receipt id → the receipt view JSON',
  },
  StreamStateChanges: {
    id: 48,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'block' },
    doc: "block hash → the block's state changes with causes, JSON array, all shards",
  },
  StreamOutcomeIds: {
    id: 50,
    insertOnly: true,
    refcounted: false,
    gc: { by: 'block' },
    doc: "block hash → the ids of the block's outcomes (transaction hashes, receipt ids), JSON array",
  },
  StateHistory: {
    id: 49,
    insertOnly: true,
    refcounted: false,
    gc: 'keep',
    doc: 'escaped trie key ‖ u64be(MAX − height) → 1 ‖ value, or 0 for a deletion, as of that height',
  },
  StateHistoryFlat: {
    id: 51,
    insertOnly: false,
    refcounted: false,
    gc: 'keep',
    doc: "trie key → u64be height of the key's newest StateHistory row ‖ that row's value: the value at the cursor",
  },
} as const satisfies Record<string, ColumnSpec>;

export type DBColName = keyof typeof DBCol;
export type DBColumn = (typeof DBCol)[DBColName];
