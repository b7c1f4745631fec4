// A producer's source for EXPERIMENTAL_receipt_to_tx (receipt_to_tx.ts): the receipts' and
// transactions' rows and each block's outcomes, per shard, in the chain store.
import { bytesEqual, type CryptoHash, concatBytes } from '@nearlite/primitives';
import { blockShardKey, DBCol } from '@nearlite/store';
import type { ChainHandle } from '../chain_handle.js';
import { decodeIdList, storedOutcomeBytes } from '../outcome_store.js';
import type { TxCodecs } from './codecs.js';
import {
  type ReceiptToTxRequest,
  type ReceiptToTxSource,
  receiptToTxOver,
  spendOutcome,
} from './receipt_to_tx.js';

export function chainReceiptSource(chain: ChainHandle, codecs: TxCodecs): ReceiptToTxSource {
  const store = chain.store;
  return {
    headHeight: () => chain.headHeader().lite.height,
    tailHeight: () => chain.chainStore.tail() ?? 0,
    executedAt: (receiptId) => {
      const block = store.get(DBCol.ReceiptBlock, receiptId);
      // A receipt whose block is gone is looked for from the head down, as one not yet executed.
      return block ? chain.chainStore.blockHeader(block)?.lite.height : undefined;
    },
    findCreator: (receiptId, from, lowest, budget) => {
      for (let height = from; height >= lowest; height--) {
        const blockHash = chain.chainStore.blockHashByHeight(height);
        if (!blockHash) continue;
        for (const shardId of chain.layout.shardIds) {
          const ids = store.get(DBCol.OutcomeIds, blockShardKey(blockHash, shardId));
          if (!ids) continue;
          for (const outcomeId of decodeIdList(ids)) {
            spendOutcome(budget);
            const stored = store.get(DBCol.TransactionResultForBlock, concatBytes(outcomeId, blockHash));
            if (!stored) continue;
            const outcome = codecs.decodeOutcome(storedOutcomeBytes(stored));
            if (outcome.receiptIds.some((r) => bytesEqual(r, receiptId))) return { id: outcomeId, height };
          }
        }
      }
      return null;
    },
    // Every receipt a block sends or holds pending is kept in Receipts until GC collects the block
    // that made it, and with it the outcome a walk would look for.
    holds: (receiptId) =>
      store.get(DBCol.Receipts, receiptId) !== undefined ||
      store.get(DBCol.ReceiptBlock, receiptId) !== undefined,
    signerOf: (hash: CryptoHash) => {
      const tx = store.get(DBCol.Transactions, hash);
      return tx ? codecs.decodeTransaction(tx).signerId : undefined;
    },
  };
}

/** EXPERIMENTAL_receipt_to_tx on a producer. */
export function receiptToTx(chain: ChainHandle, codecs: TxCodecs, req: ReceiptToTxRequest): Promise<object> {
  return receiptToTxOver(chainReceiptSource(chain, codecs), req);
}
