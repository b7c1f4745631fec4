// What each shard's chunk sends, stored the two ways it is read. By sending shard
// (OutgoingReceiptIds, ids in the order they were made): the shard's next chunk carries them as its
// prev_outgoing_receipts, with its header's outgoing_receipts_root over them, as nearcore's chunks
// do. By receiving shard (OutgoingReceipts, the bytes): what that shard runs in the next block.
// Receipts holds each one's bytes until the block that runs it is collected.
import { bytesEqual, type CryptoHash, decodeReceipt, toHex } from '@nearlite/primitives';
import { blockShardKey, DBCol, type Store, type StoreUpdate } from '@nearlite/store';
import { ChainError } from './chain_error.js';
import type { AppliedReceipt } from './chunk_applier.js';
import { decodeBytesList, decodeIdList, encodeBytesList, encodeIdList } from './outcome_store.js';
import { outgoingReceiptsRoot } from './receipts_root.js';
import type { ShardLayout } from './shard_layout.js';

/** What a block's chunks send, gathered as the block is made. */
export class BlockSent {
  /** Each sending shard's receipts, in the order they were made. */
  readonly byShard = new Map<number, readonly Uint8Array[]>();
  private readonly byReceiver: Map<number, Uint8Array[]>;

  constructor(
    readonly blockHash: CryptoHash,
    private readonly layout: ShardLayout,
  ) {
    this.byReceiver = new Map(layout.shardIds.map((s) => [s, []]));
  }

  /** One shard's outgoing receipts: their rows, and the outgoing_receipts_root its next chunk names. */
  add(update: StoreUpdate, shardId: number, receipts: readonly AppliedReceipt[]): CryptoHash {
    this.byShard.set(
      shardId,
      receipts.map((r) => r.bytes),
    );
    if (receipts.length > 0)
      update.put(
        DBCol.OutgoingReceiptIds,
        blockShardKey(this.blockHash, shardId),
        encodeIdList(receipts.map((r) => r.receiptId)),
      );
    const sent = receipts.map((r) => {
      update.put(DBCol.Receipts, r.receiptId, r.bytes);
      const to = r.targetShard ?? this.layout.accountIdToShardId(r.receiverId);
      this.byReceiver.get(to)!.push(r.bytes);
      return { shardId: to, bytes: r.bytes };
    });
    return outgoingReceiptsRoot(this.layout.shardIds, sent);
  }

  /** The receiving shards' rows, once every shard's chunk has been applied. */
  write(update: StoreUpdate): void {
    for (const [shardId, receipts] of this.byReceiver) {
      if (receipts.length > 0)
        update.put(DBCol.OutgoingReceipts, blockShardKey(this.blockHash, shardId), encodeBytesList(receipts));
    }
  }
}

export class SentReceipts {
  /** The block made last, which the next is built on: its receipts are still at hand. */
  private last: BlockSent | null = null;

  constructor(
    private readonly store: Store,
    private readonly layout: ShardLayout,
  ) {}

  forBlock(blockHash: CryptoHash): BlockSent {
    return new BlockSent(blockHash, this.layout);
  }

  /** The block's rows are stored. */
  committed(block: BlockSent): void {
    this.last = block;
  }

  /** What shard `shardId`'s chunk of block `blockHash` sent, in order: its next chunk's receipts. */
  sentBy(blockHash: CryptoHash, shardId: number): readonly Uint8Array[] {
    const last = this.last;
    if (last && bytesEqual(last.blockHash, blockHash)) return last.byShard.get(shardId) ?? [];
    const ids = this.store.get(DBCol.OutgoingReceiptIds, blockShardKey(blockHash, shardId));
    if (!ids) return [];
    let delivered: Map<string, Uint8Array> | undefined;
    return decodeIdList(ids).map((id) => {
      // A store rolled back before repairs restored the rows of what the head sent (see
      // pending_receipts.ts): the receiving shards' rows still hold them.
      let bytes = this.store.get(DBCol.Receipts, id);
      if (!bytes) {
        delivered ??= this.deliveredBy(blockHash);
        bytes = delivered.get(toHex(id));
      }
      if (!bytes) throw new ChainError(`receipt ${toHex(id)} sent by shard ${shardId} is not stored`);
      return bytes;
    });
  }

  /** What block `blockHash`'s chunks sent to shard `shardId`: what it runs in the next block. */
  sentTo(blockHash: CryptoHash, shardId: number): Uint8Array[] {
    const row = this.store.get(DBCol.OutgoingReceipts, blockShardKey(blockHash, shardId));
    return row ? decodeBytesList(row) : [];
  }

  /** The receipts a block's chunks sent, by id, as the receiving shards' rows hold them. */
  private deliveredBy(blockHash: CryptoHash): Map<string, Uint8Array> {
    const out = new Map<string, Uint8Array>();
    for (const shardId of this.layout.shardIds)
      for (const bytes of this.sentTo(blockHash, shardId))
        out.set(toHex(decodeReceipt(bytes).receiptId), bytes);
    return out;
  }
}
