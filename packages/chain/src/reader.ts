// A read-only view of a stopped node's home for tools: blocks, chunks, transactions, receipts,
// outcomes, state changes and account state at any kept block. Opening takes the database lock, so
// the node must not be running. It refuses what the node refuses (a store of another genesis or of
// a version it does not read) and what it cannot read (a follower's history, a database nearlite
// did not make): every answer is the store's, never a guess from the wrong one.
import { resolve } from 'node:path';
import {
  type Account,
  base58Encode,
  type CryptoHash,
  concatBytes,
  decodeAccount,
} from '@nearlite/primitives';
import {
  blockShardKey,
  DBCol,
  readCheckedMetadata,
  readMetadata,
  Store,
  StoreError,
  StoreErrorCode,
} from '@nearlite/store';
import {
  type ParsedTrieKey,
  parseTrieKey,
  type StateChangeRecord,
  Trie,
  trieKeyAccount,
  trieKeyContractDataPrefix,
} from '@nearlite/trie';
import type { BlockHeader } from './block_header.js';
import { ChainStore, HEAD_KEY, type Tip } from './chain_store.js';
import type { Chunk } from './chunk.js';
import { type GenesisConfig, loadGenesisConfig } from './genesis/config.js';
import { ensureGenesisConfig } from './genesis/fingerprint.js';
import { decodeStoredOutcome, type StoredOutcome } from './outcome_store.js';
import { type ShardLayout, shardLayoutFromView } from './shard_layout.js';
import { decodeStateChangeRecords } from './state_changes.js';
import { trieStorage } from './state_store.js';
import { accountIdArg, bytesArg, describeArg, hashArg, heightArg } from './tool_args.js';

export class ChainReader {
  private constructor(
    readonly store: Store,
    readonly chainStore: ChainStore,
    /** Its genesis' config only: the records are no reader's concern. */
    readonly genesis: { readonly config: GenesisConfig },
    readonly layout: ShardLayout,
  ) {}

  /**
   * Opens the home's database read-only (`<home>/data`), with `<home>/genesis.json` (its config) for
   * the shard layout; `at` names other places as the node's config.json does (`store.path`,
   * `genesis_file`): relative to the home, or absolute.
   */
  static async open(
    home: string,
    at: {
      readonly dataDir?: string;
      readonly genesisFile?: string;
      /** Opens a database that holds no chain a node made too (`inspect` reads a follower's). */
      readonly withoutChain?: boolean;
    } = {},
  ): Promise<ChainReader> {
    const genesisPath = resolve(home, at.genesisFile ?? 'genesis.json');
    const config = loadGenesisConfig(genesisPath);
    const dataDir = resolve(home, at.dataDir ?? 'data');
    const store = await Store.open(dataDir, { readOnly: true });
    try {
      const meta = readCheckedMetadata(store);
      // A follower's history records the store's metadata too, but no head: the head is the chain.
      if ((!meta || !store.has(DBCol.BlockMisc, HEAD_KEY)) && !at.withoutChain) {
        throw new StoreError(
          StoreErrorCode.Kind,
          `the database at ${dataDir} holds no chain a nearlite node made: a follower's history is read ` +
            'through HistoryStore from @nearlite/follower, and a database nearlite did not make is not read',
        );
      }
      ensureGenesisConfig(store, config, genesisPath);
    } catch (err) {
      await store.close();
      throw err;
    }
    return new ChainReader(store, new ChainStore(store), { config }, shardLayoutFromView(config.shardLayout));
  }

  private shardArg(shardId: number): void {
    if (typeof shardId !== 'number')
      throw new TypeError(`a shard id is a number, got ${describeArg(shardId)}`);
    if (!this.layout.shardIds.includes(shardId)) {
      throw new RangeError(
        `shard ${String(shardId)} is not one of the chain's (${this.layout.shardIds.join(', ')})`,
      );
    }
  }

  kind(): string | null {
    return readMetadata(this.store)?.kind ?? null;
  }

  head(): Tip | null {
    return this.chainStore.head();
  }

  /** The lowest height whose block is still stored. */
  tail(): number {
    return this.chainStore.tail() ?? this.genesis.config.genesisHeight;
  }

  blockByHeight(height: number): BlockHeader | undefined {
    const hash = this.chainStore.blockHashByHeight(heightArg(height));
    return hash ? this.chainStore.blockHeader(hash) : undefined;
  }

  blockByHash(hash: CryptoHash): BlockHeader | undefined {
    return this.chainStore.blockHeader(hashArg(hash));
  }

  chunk(height: number, shardId: number): Chunk | undefined {
    this.shardArg(shardId);
    const hash = this.chainStore.blockHashByHeight(heightArg(height));
    const chunkHash = hash
      ? this.store.get(DBCol.ChunkHashesByBlock, blockShardKey(hash, shardId))
      : undefined;
    return chunkHash ? this.chainStore.chunk(chunkHash) : undefined;
  }

  /** Borsh of a signed transaction, and the block whose chunk included it. */
  transaction(hash: CryptoHash): { bytes: Uint8Array; blockHash: CryptoHash | undefined } | undefined {
    const bytes = this.store.get(DBCol.Transactions, hashArg(hash));
    return bytes ? { bytes, blockHash: this.store.get(DBCol.TransactionBlock, hash) } : undefined;
  }

  /** Borsh of a receipt. */
  receipt(id: CryptoHash): Uint8Array | undefined {
    return this.store.get(DBCol.Receipts, hashArg(id));
  }

  /** The execution outcome of a transaction or receipt, with its block and merkle proof. */
  outcome(id: CryptoHash): StoredOutcome | undefined {
    hashArg(id);
    const block = this.store.get(DBCol.TransactionBlock, id) ?? this.store.get(DBCol.ReceiptBlock, id);
    const bytes = block ? this.store.get(DBCol.TransactionResultForBlock, concatBytes(id, block)) : undefined;
    return bytes ? decodeStoredOutcome(bytes) : undefined;
  }

  /**
   * The state changes a block made; a RangeError for a hash that is no kept block's (an empty list
   * would say the block changed nothing) or a block GC collected them from.
   */
  async stateChanges(blockHash: CryptoHash): Promise<{ key: ParsedTrieKey; changes: StateChangeRecord[] }[]> {
    const header = this.blockByHash(blockHash);
    if (!header) throw new RangeError(`no block with hash ${base58Encode(blockHash)}`);
    if (header.lite.height < this.tail()) {
      throw new RangeError(`block ${header.lite.height} is below the GC tail ${this.tail()}`);
    }
    const out: { key: ParsedTrieKey; changes: StateChangeRecord[] }[] = [];
    for await (const [k, v] of this.store.iter(DBCol.StateChanges, blockHash)) {
      out.push({ key: parseTrieKey(k.subarray(32)), changes: decodeStateChangeRecords(v) });
    }
    return out;
  }

  /** The state trie of the shard holding `accountId`, as of block `height` (default: head). */
  stateAt(accountId: string, height?: number): Trie {
    return this.shardState(this.layout.accountIdToShardId(accountIdArg(accountId)), height);
  }

  /** The state trie of one shard as of block `height` (default: head). */
  shardState(shardId: number, height?: number): Trie {
    this.shardArg(shardId);
    const h = height === undefined ? this.head()?.height : heightArg(height);
    const header = h === undefined ? undefined : this.blockByHeight(h);
    if (!header) throw new RangeError(`no block at height ${h}`);
    if (header.lite.height < this.tail())
      throw new RangeError(`block ${h} is below the GC tail ${this.tail()}`);
    const extra = this.chainStore.chunkExtra(header.hash, shardId);
    if (!extra) throw new RangeError(`no state for block ${base58Encode(header.hash)}`);
    return new Trie(trieStorage(this.store), extra.stateRoot);
  }

  account(accountId: string, height?: number): Account | undefined {
    const trie = this.stateAt(accountId, height);
    const raw = trie.get(trieKeyAccount(accountId));
    return raw ? decodeAccount(raw) : undefined;
  }

  /** Contract storage of `accountId` whose key starts with `prefix`, ascending. */
  *contractState(
    accountId: string,
    prefix: Uint8Array = new Uint8Array(0),
    height?: number,
  ): Generator<[Uint8Array, Uint8Array]> {
    const trie = this.stateAt(accountId, height);
    const base = trieKeyContractDataPrefix(accountId);
    for (const [k, v] of trie.iterPrefix(concatBytes(base, bytesArg(prefix, 'a key prefix')))) {
      yield [k.subarray(base.length), v];
    }
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}
