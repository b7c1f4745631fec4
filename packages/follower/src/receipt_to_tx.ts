// A follower's source for EXPERIMENTAL_receipt_to_tx (@nearlite/chain's receipt_to_tx.ts): the same
// walk back through the blocks' outcomes as a producer's, over the outcome, transaction and block
// views its history keeps, so a follower answers as the producer it follows.
import { type ReceiptToTxSource, spendOutcome } from '@nearlite/chain';
import { base58Decode, base58Encode, type CryptoHash } from '@nearlite/primitives';
import type { HistoryReader } from './history_reader.js';

interface OutcomeJson {
  readonly id: string;
  readonly block_hash: string;
  readonly outcome: { readonly receipt_ids: readonly string[] };
}

/** Heights whose outcomes one history read brings. */
const HEIGHTS_PER_READ = 64;

export function historyReceiptSource(history: HistoryReader): ReceiptToTxSource {
  return {
    headHeight: () => history.cursor()?.height ?? -1,
    tailHeight: () => history.firstHeight() ?? history.genesisHeight() ?? 0,
    executedAt: async (receiptId) => {
      // A transaction's outcome is kept under its hash too; only a receipt's places a receipt.
      if ((await history.transaction(receiptId)) !== undefined) return undefined;
      const text = await history.outcome(receiptId);
      if (text === undefined) return undefined;
      const block = await history.block(base58Decode((JSON.parse(text) as OutcomeJson).block_hash));
      return block?.height;
    },
    findCreator: async (receiptId, from, lowest, budget) => {
      const wanted = base58Encode(receiptId);
      // A slice of heights a read, so a remote history answers a long walk in few round trips.
      for (let high = from; high >= lowest; high -= HEIGHTS_PER_READ) {
        const low = Math.max(lowest, high - HEIGHTS_PER_READ + 1);
        for (const { height, outcomes } of await history.outcomesIn(low, high)) {
          for (const text of outcomes) {
            spendOutcome(budget);
            // The id's text shows up in the outcome that lists it; the parse confirms where.
            if (!text.includes(wanted)) continue;
            const o = JSON.parse(text) as OutcomeJson;
            if (o.outcome.receipt_ids.includes(wanted)) return { id: base58Decode(o.id), height };
          }
        }
      }
      return null;
    },
    signerOf: async (hash: CryptoHash) => {
      const text = await history.transaction(hash);
      return text === undefined ? undefined : (JSON.parse(text) as { signer_id: string }).signer_id;
    },
  };
}
