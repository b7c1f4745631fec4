// Applies a genesis: builds each shard's state trie from the records and writes the genesis block,
// its chunks and their post-state in one batch.
import { type CryptoHash, compareBytes, type Signature, ZERO_HASH } from '@nearlite/primitives';
import { blockShardKey, DBCol, StoreUpdate } from '@nearlite/store';
import { applyChanges, EMPTY_ROOT, genesisStateFromRecords, type TrieStorage } from '@nearlite/trie';
import { type BlockHeader, computeBlockHash, innerRestHash, innerRestLayout } from '../block_header.js';
import { EMPTY_MERKLE_TREE, encodeMerkleTree, merkleTreeInsert } from '../block_merkle_tree.js';
import {
  type Chunk,
  type ChunkExtra,
  type ChunkHeader,
  chunkHeadersRoot,
  computeChunkHash,
  encodeChunkExtra,
} from '../chunk.js';
import { chunkEncoding, GENESIS_CHUNK_PARTS } from '../chunk_encoding.js';
import { writeFlatState } from '../flat_state.js';
import { merklizeHashes } from '../merkle.js';
import { outgoingReceiptsRoot } from '../receipts_root.js';
import type { ShardLayout } from '../shard_layout.js';
import { writeTrieChanges } from '../state_store.js';
import { computeBpHash } from '../validators.js';
import { type Genesis, GenesisError, type GenesisRecord } from './config.js';
import { genesisReceiptWrites, isReceiptRecord } from './genesis_receipts.js';

export const EMPTY_SIGNATURE: Signature = { keyType: 0, data: new Uint8Array(64) };

/** The account a record belongs to, which places it in a shard: a receipt's is its receiver. */
function recordAccount(r: GenesisRecord): string {
  const v = Object.values(r)[0] as { account_id?: unknown; receiver_id?: unknown } | null;
  const id = v?.account_id ?? v?.receiver_id;
  if (typeof id !== 'string')
    throw new GenesisError('genesis: a record without an account_id or receiver_id');
  return id;
}

export interface GenesisBlockResult {
  readonly update: StoreUpdate;
  readonly header: BlockHeader;
  readonly chunks: readonly Chunk[];
  readonly stateRoots: readonly CryptoHash[];
}

export function buildGenesisBlock(
  genesis: Genesis,
  layout: ShardLayout,
  storage: TrieStorage,
  storageUsageConfig: { numBytesAccount: bigint; numExtraBytesRecord: bigint },
): GenesisBlockResult {
  const cfg = genesis.config;
  const update = new StoreUpdate();
  const byShard = new Map<number, GenesisRecord[]>(layout.shardIds.map((s) => [s, []]));
  const receiptsByShard = new Map<number, { index: number; record: GenesisRecord }[]>(
    layout.shardIds.map((s) => [s, []]),
  );
  for (const [index, r] of genesis.records.entries()) {
    const shardId = layout.accountIdToShardId(recordAccount(r));
    if (isReceiptRecord(r)) receiptsByShard.get(shardId)!.push({ index, record: r });
    else byShard.get(shardId)!.push(r);
  }

  const stateRoots: CryptoHash[] = [];
  const chunkHeaders: ChunkHeader[] = [];
  const chunks: Chunk[] = [];
  const emptyBody = chunkEncoding([], [], GENESIS_CHUNK_PARTS);
  for (const shardId of layout.shardIds) {
    const receipts = genesisReceiptWrites(receiptsByShard.get(shardId)!);
    const kvs = genesisStateFromRecords(byShard.get(shardId)!, {
      ...storageUsageConfig,
      validators: cfg.validators.map((v) => ({ accountId: v.accountId, amount: v.amount })),
    });
    if (receipts.writes.length > 0) {
      kvs.push(...receipts.writes);
      kvs.sort((x, y) => compareBytes(x.key, y.key));
    }
    const changes = applyChanges(storage, EMPTY_ROOT, kvs);
    writeTrieChanges(update, ZERO_HASH, shardId, { ...changes, deletions: [] });
    writeFlatState(update, shardId, kvs);
    stateRoots.push(changes.newRoot);
    const inner = {
      prevBlockHash: ZERO_HASH,
      prevStateRoot: changes.newRoot,
      prevOutcomeRoot: ZERO_HASH,
      ...emptyBody,
      heightCreated: cfg.genesisHeight,
      shardId,
      prevGasUsed: 0n,
      gasLimit: cfg.gasLimit,
      prevBalanceBurnt: 0n,
      prevOutgoingReceiptsRoot: ZERO_HASH,
      txRoot: ZERO_HASH,
      prevValidatorProposals: [],
      congestionInfo: {
        delayedReceiptsGas: receipts.delayedGas,
        bufferedReceiptsGas: 0n,
        receiptBytes: receipts.delayedBytes,
        allowedShard: shardId,
      },
    };
    const header: ChunkHeader = {
      chunkHash: computeChunkHash(inner),
      inner,
      heightIncluded: cfg.genesisHeight,
      signature: EMPTY_SIGNATURE,
    };
    chunkHeaders.push(header);
    chunks.push({ header, transactions: [], prevOutgoingReceipts: [] });
  }

  const lite = {
    height: cfg.genesisHeight,
    epochId: ZERO_HASH,
    nextEpochId: ZERO_HASH,
    prevStateRoot: merklizeHashes(stateRoots),
    prevOutcomeRoot: ZERO_HASH,
    timestamp: cfg.genesisTimeNs,
    nextBpHash: computeBpHash(cfg.validators),
    blockMerkleRoot: ZERO_HASH,
  };
  const rest = {
    blockBodyHash: ZERO_HASH,
    chunkReceiptsRoot: merklizeHashes(chunkHeaders.map(() => ZERO_HASH)),
    chunkHeadersRoot: chunkHeadersRoot(chunkHeaders),
    chunkTxRoot: merklizeHashes(chunkHeaders.map(() => ZERO_HASH)),
    challengesRoot: ZERO_HASH,
    randomValue: ZERO_HASH,
    validatorProposals: [],
    chunkMask: chunkHeaders.map(() => true),
    nextGasPrice: cfg.minGasPrice,
    totalSupply: cfg.totalSupply,
    lastFinalBlock: ZERO_HASH,
    lastDsFinalBlock: ZERO_HASH,
    blockOrdinal: 1,
    prevHeight: 0,
    approvals: [],
    latestProtocolVersion: cfg.protocolVersion,
    layout: innerRestLayout(cfg.protocolVersion),
    chunkEndorsements: [],
  };
  const hash = computeBlockHash(ZERO_HASH, lite, innerRestHash(rest));
  const header: BlockHeader = { hash, prevHash: ZERO_HASH, lite, rest, signature: EMPTY_SIGNATURE };
  for (const [i, shardId] of layout.shardIds.entries()) {
    const extra: ChunkExtra = {
      stateRoot: stateRoots[i]!,
      outcomeRoot: ZERO_HASH,
      gasUsed: 0n,
      gasLimit: cfg.gasLimit,
      balanceBurnt: 0n,
      // What the first chunks name as their previous chunks' receipts: none, whose root is not zeros.
      outgoingReceiptsRoot: outgoingReceiptsRoot(layout.shardIds, []),
      validatorProposals: [],
    };
    update.put(DBCol.ChunkExtra, blockShardKey(hash, shardId), encodeChunkExtra(extra));
  }
  update.put(DBCol.BlockMerkleTree, hash, encodeMerkleTree(merkleTreeInsert(EMPTY_MERKLE_TREE, hash)));
  return { update, header, chunks, stateRoots };
}
