// The StreamerMessage of a kept block, as nearcore's indexer builds it (chain/indexer streamer
// `build_streamer_message`) with neardata's `tx_hash` on receipt outcomes. Every part is the object
// the node's RPC answers for the same thing, serialized the same way (`stringifyJson`), so a follower
// that serves these bytes answers exactly as the producer: `block` is the stored `block` result
// itself, chunk transactions and receipts are the `chunk` result's, outcomes are `tx`'s, state
// changes are `changes`'s.
import {
  blockAuthor,
  blockViewJson,
  type Chunk,
  chunkHeaderView,
  decodeStateChangeRecords,
  stateChangeWithCauseView,
} from '@nearlite/chain';
import {
  base58Encode,
  type CryptoHash,
  decodeReceipt,
  decodeSignedTransaction,
  fromUtf8,
  isInstantReceipt,
  type Receipt,
  receiptView,
  signedTransactionView,
  stringifyJson,
} from '@nearlite/primitives';
import { DBCol } from '@nearlite/store';
import { parseTrieKey } from '@nearlite/trie';
import type { StreamChain } from './chain_view.js';
import { type BlockOutcome, loadBlockOutcome, outcomeIds } from './outcomes.js';
import { TxHashIndex } from './tx_hash_index.js';

/** One block's message, already serialized: NEAR Lake's files and neardata's body are cut from it. */
export interface BuiltStreamerMessage {
  readonly height: number;
  /** Base58 block hash. */
  readonly hash: string;
  /** `block.json`: the `block` RPC result. */
  readonly block: string;
  /** `shard_<id>.json` of every shard, in the shard layout's order. */
  readonly shards: readonly { readonly shardId: number; readonly json: string }[];
}

/** The whole message, `{"block":…,"shards":[…]}`, as neardata serves it. */
export function streamerMessageJson(m: BuiltStreamerMessage): string {
  return `{"block":${m.block},"shards":[${m.shards.map((s) => s.json).join(',')}]}`;
}

export class StreamerMessageBuilder {
  private readonly txHashes: TxHashIndex;

  constructor(private readonly chain: StreamChain) {
    this.txHashes = new TxHashIndex(chain);
  }

  /** The message of the canonical block at `height`, or null when no block is kept there. */
  async build(height: number): Promise<BuiltStreamerMessage | null> {
    const cs = this.chain.chainStore;
    // A collected height keeps its header and hash, not its block (genesis aside).
    const tail = cs.tail();
    if (tail !== null && height < tail && height !== this.chain.genesis.config.genesisHeight) return null;
    const hash = cs.blockHashByHeight(height);
    const header = hash && cs.blockHeader(hash);
    if (!hash || !header) return null;
    const chunkHeaders = cs.blockChunkHeaders(hash) ?? [];
    const stored = this.chain.store.get(DBCol.BlockView, hash);
    const block = stored
      ? fromUtf8(stored)
      : blockViewJson(blockAuthor(this.chain.genesis.config), header, chunkHeaders);

    const changes = await this.stateChanges(hash);
    const shards: { shardId: number; json: string }[] = [];
    const learnt: BlockOutcome[] = [];
    for (const shardId of this.chain.layout.shardIds) {
      const chunkHeader = chunkHeaders.find((c) => c.inner.shardId === shardId);
      // A shard whose header was carried over from an earlier block has no new chunk here.
      const chunk =
        chunkHeader && chunkHeader.heightIncluded === height ? cs.chunk(chunkHeader.chunkHash) : undefined;
      const shard = chunk
        ? this.shardWithChunk(hash, height, shardId, chunk, learnt)
        : { shard_id: shardId, chunk: null, receipt_execution_outcomes: [] };
      shards.push({
        shardId,
        json: stringifyJson({ ...shard, state_changes: changes.get(shardId) ?? [] }),
      });
    }
    this.txHashes.learn(learnt);
    return { height, hash: base58Encode(hash), block, shards };
  }

  private shardWithChunk(
    blockHash: CryptoHash,
    height: number,
    shardId: number,
    chunk: Chunk,
    learnt: BlockOutcome[],
  ): object {
    const store = this.chain.store;
    const author = blockAuthor(this.chain.genesis.config);
    const outcomes = new Map<string, BlockOutcome>();
    for (const id of outcomeIds(store, blockHash, shardId)) {
      const o = loadBlockOutcome(store, id, blockHash);
      if (o) {
        outcomes.set(base58Encode(id), o);
        learnt.push(o);
      }
    }
    const txIds = new Set<string>();
    const localReceiptIds: CryptoHash[] = [];
    const transactions = chunk.transactions.map((bytes) => {
      const stx = decodeSignedTransaction(bytes);
      const id = base58Encode(stx.hash);
      txIds.add(id);
      const outcome = outcomes.get(id);
      // A transaction whose signer is its receiver becomes a receipt that never travels between
      // chunks: the indexer lists it as a local receipt.
      const first = outcome?.receiptIds[0];
      if (stx.transaction.signerId === stx.transaction.receiverId && first) localReceiptIds.push(first);
      return {
        transaction: signedTransactionView(stx),
        outcome: { execution_outcome: outcome?.view ?? null, receipt: null },
      };
    });
    const receiptOutcomes = [...outcomes.values()].filter((o) => !txIds.has(base58Encode(o.id)));
    const txHashes = this.txHashes.resolve(
      receiptOutcomes.map((o) => o.id),
      height,
    );
    const stored = (id: CryptoHash): Receipt | undefined => {
      const bytes = store.get(DBCol.Receipts, id);
      return bytes && decodeReceipt(bytes);
    };
    const receiptExecutionOutcomes = receiptOutcomes.flatMap((o, i) => {
      const receipt = stored(o.id);
      if (!receipt) return [];
      return [{ execution_outcome: o.view, receipt: receiptView(receipt), tx_hash: txHashes[i] ?? null }];
    });
    const localReceipts = localReceiptIds.flatMap((id) => {
      const receipt = stored(id);
      return receipt ? [receiptView(receipt)] : [];
    });
    // The receipts this chunk ran right after the receipt that made them (nearcore's
    // ReceiptSource::Instant), in the order they ran. A yield parked this way has no outcome here.
    const instantReceipts = receiptOutcomes.flatMap((o) =>
      o.receiptIds.flatMap((id) => {
        const receipt = stored(id);
        return receipt && isInstantReceipt(receipt) ? [receiptView(receipt)] : [];
      }),
    );
    return {
      shard_id: shardId,
      chunk: {
        author,
        header: chunkHeaderView(chunk.header),
        transactions,
        receipts: chunk.prevOutgoingReceipts.map((r) => receiptView(decodeReceipt(r))),
        local_receipts: localReceipts,
        instant_receipts: instantReceipts,
      },
      receipt_execution_outcomes: receiptExecutionOutcomes,
    };
  }

  /** The block's state changes per shard, in the store's (trie key) order, as `changes` shows them. */
  private async stateChanges(blockHash: CryptoHash): Promise<Map<number, object[]>> {
    const out = new Map<number, object[]>();
    for await (const [k, v] of this.chain.store.iter(DBCol.StateChanges, blockHash)) {
      const key = k.subarray(32);
      const parsed = parseTrieKey(key);
      if (!('accountId' in parsed)) continue;
      const shardId = this.chain.layout.accountIdToShardId(parsed.accountId);
      let list = out.get(shardId);
      for (const rec of decodeStateChangeRecords(v)) {
        const view = stateChangeWithCauseView(key, rec);
        if (!view) continue;
        if (!list) {
          list = [];
          out.set(shardId, list);
        }
        list.push(view);
      }
    }
    return out;
  }
}
