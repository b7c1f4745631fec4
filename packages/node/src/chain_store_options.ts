// How a chain's database is opened: by the node (node.ts), its chain thread (chain_worker.ts) and
// repair, in a module of their own so that what measures the chain's work outside a node (the
// bench's block-production case) opens it alike.
import { DBCol, type StoreOptions } from '@nearlite/store';

// What the chain reads back of what it writes: the rest (outcomes, receipts, transactions, views,
// state changes) only the RPC thread reads, and caching it here would only push these out. Trie
// nodes (State) are read back decoded, from the trie's own cache of the nodes each edit wrote; their
// bytes in this cache as well cost more (each row kept twice, promoted by the garbage collector)
// than reading the few that fall out of it from LevelDB.
const READ_BACK = [
  DBCol.BlockMisc,
  DBCol.BlockHeader,
  DBCol.Block,
  DBCol.BlockHeight,
  DBCol.ChunkExtra,
  DBCol.FlatState,
  DBCol.OutgoingReceipts,
  DBCol.OutgoingReceiptIds,
  DBCol.BlockMerkleTree,
  DBCol.TrieChanges,
  DBCol.ChunkHashesByBlock,
];

/**
 * Every open of a chain's database. Its tables are written without snappy (`StoreOptions.compression`),
 * the store's default too, unless config.json's `store.compression` asks for it: the running node
 * and its chain thread then open with it (`node.ts`); `repair` and the offline commands write
 * without, and tables written either way stay readable.
 *
 * Its memtable is 128 MiB, four times the store's default. Under a stream of transfers LevelDB's
 * one compaction thread was the largest consumer of CPU after the chain thread: on the bench's full
 * chain, over 1,200 blocks of 100 transfers, ~640 µs per transfer at 32 MiB, ~450 at 64 MiB and
 * ~245 at 128 MiB, the whole process's CPU per transfer 1,450–1,520 → 1,120–1,180 µs (bench
 * `produce.js --write-buffer-mib`). Most of what a block writes is soon superseded (the trie's upper
 * nodes, the accounts' flat rows), and a larger memtable lets more of it be merged away in the first
 * compaction, before it is rewritten level after level. The memtable grows with what is written,
 * so a chain that writes little keeps it small; one under a minute of transfers holds up to twice
 * its size while the full one is flushed (private memory +100–150 MB at the end of 60 s runs of the
 * full `send_tx` case, against +50 MB at 64 MiB, which saved a third as much CPU). After a crash
 * its log is replayed at the next open.
 */
export const CHAIN_DB_OPTIONS: StoreOptions = { compression: false, writeBufferBytes: 128 * 1024 * 1024 };

// A read cache's rows live on the V8 heap (about one and a half times their bytes), and while
// transactions flow the collector marks that heap again and again and promotes what each block adds
// to it: its size is paid for in CPU on every thread. Measured in interleaved runs on this project's
// bench chains (`docs/PERFORMANCE.md`), with LevelDB's reads per transfer unchanged.

/**
 * The RPC thread's. At 64 MiB, the send_tx case took ~11 % more CPU per transfer and ~150 MB more
 * RSS than at 16 MiB, and no read case was measurably faster. At 4 MiB, against 16, in two pairs of
 * full send_tx runs: the main thread's heap 45–55 MB used against 97–105, private memory 35–55 MB
 * less, CPU per transfer unchanged (940–1,009 µs against 992–998) and LevelDB reads per transfer
 * 7–8 against 7; the read cases that go through it (block by height, view_account, tx status) kept
 * their share of bare fastify within the machine's noise. Under a flood its rows are mostly a
 * block's outcomes, read when the block is announced and at the next one, then never again.
 */
export const RPC_STORE_OPTIONS: StoreOptions = { ...CHAIN_DB_OPTIONS, cacheBytes: 4 * 1024 * 1024 };

/**
 * The chain thread's, which caches only what it reads back: at 32 MiB, block production took ~13 %
 * more of the producing thread's CPU than at 8 MiB, at 2 MiB LevelDB's reads per transfer grew.
 */
export const CHAIN_STORE_OPTIONS: StoreOptions = {
  ...CHAIN_DB_OPTIONS,
  writeThrough: new Set(READ_BACK.map((c) => c.id)),
  cacheBytes: 8 * 1024 * 1024,
  refcountFilter: true,
};

/** The running chain thread's: with config.json's compression, and the disk's free space checked before its writes. */
export function chainThreadStoreOptions(compression: boolean, warn: (msg: string) => void): StoreOptions {
  return { ...CHAIN_STORE_OPTIONS, compression, diskSpace: { warn } };
}
