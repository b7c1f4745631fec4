// EXPERIMENTAL_receipt_to_tx: the transaction a receipt descends from. A receipt is listed in the
// `receipt_ids` of the outcome that created it, in the block where that outcome ran: at or before the
// block that executed the receipt. So each hop scans back from there through the blocks' outcomes,
// instead of keeping a map from every receipt to its parent that block production would write.
// nearcore's answers and errors (chain/client/src/view_client_actor.rs, handle_receipt_to_tx).
//
// The walk is the same wherever the outcomes live: a producer's chain store here, a follower's
// history (@nearlite/follower) through the same `ReceiptToTxSource`, so both answer alike.
import { base58Encode, type CryptoHash, HandlerError } from '@nearlite/primitives';

export interface ReceiptToTxRequest {
  readonly receiptId: CryptoHash;
  /** A height near where the receipt was created, for a receipt not executed yet. */
  readonly blockHeight?: number;
  readonly shardId?: number;
  /** A bigint only above 2^53, as a request may ask (it is then too large). */
  readonly window?: number | bigint;
}

/** Outcomes one request may still inspect; `spendOutcome` counts them down. */
export interface OutcomeBudget {
  left: number;
}

type MaybePromise<T> = T | Promise<T>;

/** Where the walk reads blocks' outcomes: a producer's chain store or a follower's history. */
export interface ReceiptToTxSource {
  /** The highest height the source answers for. */
  headHeight(): number;
  /** The lowest height whose outcomes the source still holds. */
  tailHeight(): number;
  /** Height of the block that executed the receipt, if it ran and is kept. */
  executedAt(receiptId: CryptoHash): MaybePromise<number | undefined>;
  /**
   * The outcome whose `receipt_ids` list `receiptId`, searched from height `from` down to `lowest`
   * (blocks above first); null if none. Each outcome looked at is first passed to
   * `spendOutcome(budget)`.
   */
  findCreator(
    receiptId: CryptoHash,
    from: number,
    lowest: number,
    budget: OutcomeBudget,
  ): MaybePromise<{ readonly id: CryptoHash; readonly height: number } | null>;
  /** The signer of the transaction `hash`; undefined when `hash` is not a kept transaction's. */
  signerOf(hash: CryptoHash): MaybePromise<string | undefined>;
  /**
   * False when the source holds no trace of the receipt at all (no row of it, no block that ran it),
   * so no walk could find its creator: it is UNKNOWN_RECEIPT at once, rather than after a scan of the
   * last blocks' outcomes. Absent: every receipt is looked for.
   */
  holds?(receiptId: CryptoHash): MaybePromise<boolean>;
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

/** Counts one inspected outcome; BUDGET_EXCEEDED once the request has inspected its limit. */
export function spendOutcome(budget: OutcomeBudget): void {
  if (budget.left-- > 0) return;
  const limit = RECEIPT_TO_TX_MAX_OUTCOMES;
  throw handlerError('BUDGET_EXCEEDED', { scanned: limit, limit });
}

/** An UNKNOWN_RECEIPT error for `receiptId`. */
export function unknownReceipt(receiptId: CryptoHash): HandlerError {
  return handlerError('UNKNOWN_RECEIPT', { receipt_id: base58Encode(receiptId) });
}

/** `{transaction_hash, sender_account_id}` of the transaction `req.receiptId` descends from. */
export async function receiptToTxOver(source: ReceiptToTxSource, req: ReceiptToTxRequest): Promise<object> {
  const hint = req.blockHeight !== undefined;
  if (req.shardId !== undefined && !hint) throw malformedHint('shard_id requires block_height');
  if (req.window !== undefined && !hint) throw malformedHint('window requires block_height');
  const requested = req.window ?? DEFAULT_HINT_WINDOW;
  if (hint && requested > RECEIPT_TO_TX_MAX_HINT_WINDOW) {
    throw handlerError('WINDOW_TOO_LARGE', { requested, maximum: RECEIPT_TO_TX_MAX_HINT_WINDOW });
  }
  const window = Number(requested);
  const head = source.headHeight();
  const budget: OutcomeBudget = { left: RECEIPT_TO_TX_MAX_OUTCOMES };
  let id = req.receiptId;
  if (source.holds && !(await source.holds(id))) throw unknownReceipt(id);
  // Where the first scan starts: the block that executed the receipt, or above the caller's hint,
  // or the head for a receipt still in flight.
  const executedIn = await source.executedAt(id);
  let from = executedIn ?? (hint ? Math.min(head, req.blockHeight! + window) : head);
  for (let depth = 0; depth < RECEIPT_TO_TX_MAX_DEPTH; depth++) {
    const parent = await findParent(source, id, from, budget);
    if (!parent) throw unknownReceipt(id);
    const sender = await source.signerOf(parent.id);
    if (sender !== undefined) {
      return { transaction_hash: base58Encode(parent.id), sender_account_id: sender };
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
  source: ReceiptToTxSource,
  id: CryptoHash,
  from: number,
  budget: OutcomeBudget,
): MaybePromise<{ readonly id: CryptoHash; readonly height: number } | null> {
  const lowest = Math.max(source.tailHeight(), from - MAX_HOP_DISTANCE);
  return source.findCreator(id, from, lowest, budget);
}
