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
  DBCol.BlockMerkleTree,
  DBCol.TrieChanges,
  DBCol.ChunkHashesByBlock,
];

/**
 * Every open of a chain's database. Its tables are written without snappy (`StoreOptions.compression`),
 * which is the store's default too; said here so that a follower's choice never reaches a chain's.
 */
export const CHAIN_DB_OPTIONS: StoreOptions = { compression: false };

/** Half the read cache a node's RPC thread has: what the chain reads back is a small part of the rows. */
export const CHAIN_STORE_OPTIONS: StoreOptions = {
  ...CHAIN_DB_OPTIONS,
  writeThrough: new Set(READ_BACK.map((c) => c.id)),
  cacheBytes: 32 * 1024 * 1024,
};
