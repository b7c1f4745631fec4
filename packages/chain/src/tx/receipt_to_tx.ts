// EXPERIMENTAL_receipt_to_tx: the transaction a receipt descends from. A receipt is listed in the
// `receipt_ids` of the outcome that created it, in the block where that outcome ran: at or before the
// block that executed the receipt. So each hop scans back from there through the blocks' outcomes,
// instead of keeping a map from every receipt to its parent that block production would write.
// nearcore's answers and errors (chain/client/src/view_client_actor.rs, handle_receipt_to_tx).
import { base58Encode, bytesEqual, type CryptoHash, concatBytes, HandlerError } from '@nearlite/primitives';
import { blockShardKey, DBCol } from '@nearlite/store';
import type { ChainHandle } from '../chain_handle.js';
import { decodeIdList, storedOutcomeBytes } from '../outcome_store.js';
import type { TxCodecs } from './codecs.js';

export interface ReceiptToTxRequest {
  readonly receiptId: CryptoHash;
  /** A height near where the receipt was created, for a receipt not executed yet. */
  readonly blockHeight?: number;
  readonly shardId?: number;
  readonly window?: number;
}

/** nearcore's RECEIPT_TO_TX_MAX_DEPTH: hops from a receipt to its transaction. */
export const RECEIPT_TO_TX_MAX_DEPTH = 1000;
/** nearcore's receipt_to_tx_max_hint_window default. */
export const RECEIPT_TO_TX_MAX_HINT_WINDOW = 20;
/** nearcore's DEFAULT_HINT_WINDOW. */
const DEFAULT_HINT_WINDOW = 5;
/** nearcore's receipt_to_tx_max_outcomes_per_request default: outcomes one request may inspect. */
export const RECEIPT_TO_TX_MAX_OUTCOMES = 20_000;
/**
 * How far back one hop looks for the outcome that created a receipt. A receipt waits in the delayed
 * queue, for a yield's resumption (at most 200 blocks) or for its data; the outcome budget bounds
 * the work either way.
 */
const MAX_HOP_DISTANCE = 2_000;

/** nearcore's RpcReceiptToTxError: the error's `{name, info}` is its data too. */
function handlerError(name: string, info: Record<string, unknown>): HandlerError {
  return new HandlerError(name, info, { name, info });
}

function malformedHint(message: string): HandlerError {
  return handlerError('MALFORMED_HINT', { error_message: message });
}

export function receiptToTx(chain: ChainHandle, codecs: TxCodecs, req: ReceiptToTxRequest): object {
  const hint = req.blockHeight !== undefined;
  if (req.shardId !== undefined && !hint) throw malformedHint('shard_id requires block_height');
  if (req.window !== undefined && !hint) throw malformedHint('window requires block_height');
  const window = req.window ?? DEFAULT_HINT_WINDOW;
  if (hint && window > RECEIPT_TO_TX_MAX_HINT_WINDOW) {
    throw handlerError('WINDOW_TOO_LARGE', { requested: window, maximum: RECEIPT_TO_TX_MAX_HINT_WINDOW });
  }
  const store = chain.store;
  const head = chain.headHeader().lite.height;
  const budget = { left: RECEIPT_TO_TX_MAX_OUTCOMES };
  let id = req.receiptId;
  // Where the first scan starts: the block that executed the receipt, or above the caller's hint,
  // or the head for a receipt still in flight.
  const executedIn = store.get(DBCol.ReceiptBlock, id);
  let from = executedIn
    ? (chain.chainStore.blockHeader(executedIn)?.lite.height ?? head)
    : hint
      ? Math.min(head, req.blockHeight! + window)
      : head;
  for (let depth = 0; depth < RECEIPT_TO_TX_MAX_DEPTH; depth++) {
    const parent = findParent(chain, codecs, id, from, budget);
    if (!parent) {
      const receipt_id = base58Encode(id);
      throw handlerError('UNKNOWN_RECEIPT', { receipt_id });
    }
    const tx = store.get(DBCol.Transactions, parent.id);
    if (tx) {
      return {
        transaction_hash: base58Encode(parent.id),
        sender_account_id: codecs.decodeTransaction(tx).signerId,
      };
    }
    // The parent is a receipt, executed where its outcome was found: its own creator ran there or earlier.
    id = parent.id;
    from = parent.height;
  }
  const receipt_id = base58Encode(req.receiptId);
  throw handlerError('DEPTH_EXCEEDED', { receipt_id, limit: RECEIPT_TO_TX_MAX_DEPTH });
}

/** The outcome listing `id` among its receipts, at `from` or below; null if none within reach. */
function findParent(
  chain: ChainHandle,
  codecs: TxCodecs,
  id: CryptoHash,
  from: number,
  budget: { left: number },
): { id: CryptoHash; height: number } | null {
  const store = chain.store;
  const lowest = Math.max(chain.chainStore.tail() ?? 0, from - MAX_HOP_DISTANCE);
  for (let height = from; height >= lowest; height--) {
    const blockHash = chain.chainStore.blockHashByHeight(height);
    if (!blockHash) continue;
    for (const shardId of chain.layout.shardIds) {
      const ids = store.get(DBCol.OutcomeIds, blockShardKey(blockHash, shardId));
      if (!ids) continue;
      for (const outcomeId of decodeIdList(ids)) {
        if (budget.left-- <= 0) {
          const limit = RECEIPT_TO_TX_MAX_OUTCOMES;
          throw handlerError('BUDGET_EXCEEDED', { scanned: limit, limit });
        }
        const stored = store.get(DBCol.TransactionResultForBlock, concatBytes(outcomeId, blockHash));
        if (!stored) continue;
        const outcome = codecs.decodeOutcome(storedOutcomeBytes(stored));
        if (outcome.receiptIds.some((r) => bytesEqual(r, id))) return { id: outcomeId, height };
      }
    }
  }
  return null;
}
