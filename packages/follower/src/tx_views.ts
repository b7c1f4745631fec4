// Transaction status and receipts from the stream's outcomes: the outcome DAG from the transaction's
// outcome through every receipt it caused (depth-first, as nearcore's get_recursive_transaction_results),
// served from the outcome JSON the stream published. Every stored block is final, so a transaction is
// FINAL once every receipt in its DAG has an outcome here.
import {
  base58Decode,
  base58Encode,
  type CryptoHash,
  HandlerError,
  RawJson,
  SYSTEM_ACCOUNT,
  type TxExecutionStatus,
} from '@nearlite/primitives';
import type { HistoryReader } from './history_reader.js';

interface OutcomeJson {
  readonly id: string;
  readonly outcome: { readonly receipt_ids: string[]; readonly status: unknown };
}

interface Loaded {
  readonly raw: string;
  readonly parsed: OutcomeJson;
}

async function load(history: HistoryReader, id: CryptoHash): Promise<Loaded | null> {
  const raw = await history.outcome(id);
  return raw === undefined ? null : { raw, parsed: JSON.parse(raw) as OutcomeJson };
}

export function unknownTransaction(hash: CryptoHash): HandlerError {
  const h = base58Encode(hash);
  return new HandlerError(
    'UNKNOWN_TRANSACTION',
    { requested_transaction_hash: h },
    `Transaction ${h} doesn't exist`,
  );
}

/** nearcore's FinalExecutionStatus: follow SuccessReceiptId to the receipt that produced the value. */
function finalStatus(outcomes: readonly Loaded[]): unknown {
  const byId = new Map(outcomes.map((o) => [o.parsed.id, o.parsed]));
  let cur: OutcomeJson | undefined = outcomes[0]?.parsed;
  for (let guard = 0; cur && guard < 10_000; guard++) {
    const s = cur.outcome.status as Record<string, unknown> | string;
    if (typeof s === 'object' && s !== null) {
      if ('Failure' in s) return { Failure: s.Failure };
      if ('SuccessValue' in s) return { SuccessValue: s.SuccessValue };
      if ('SuccessReceiptId' in s) {
        cur = byId.get(String(s.SuccessReceiptId));
        continue;
      }
    }
    return 'Started';
  }
  return 'Started';
}

/**
 * Whether a receipt that has not run is a refund. The stream publishes a receipt with the next chunk
 * of the shard that made it, so the last receipts of the cursor's block are not here yet; those are
 * taken for refunds, which nearly every such receipt is (a contract's own call leaves gas to refund).
 */
async function isRefund(history: HistoryReader, receiptId: string): Promise<boolean> {
  const raw = await history.receipt(base58Decode(receiptId));
  return (
    raw === undefined || (JSON.parse(raw) as { predecessor_id: string }).predecessor_id === SYSTEM_ACCOUNT
  );
}

/** The transaction's answer as of the history's cursor, with its level; null while it is unknown here. */
export async function txStatusView(
  history: HistoryReader,
  txHash: CryptoHash,
  withReceipts: boolean,
): Promise<{ readonly answer: object; readonly level: TxExecutionStatus } | null> {
  const [txRaw, txOutcome] = await Promise.all([history.transaction(txHash), load(history, txHash)]);
  if (txRaw === undefined || !txOutcome) return null;
  const outcomes: Loaded[] = [txOutcome];
  const seen = new Set<string>();
  const lastIds: string[] = [];
  const pending: string[] = [];
  const visit = async (o: Loaded, isTx: boolean): Promise<void> => {
    const ids = o.parsed.outcome.receipt_ids;
    if (!isTx && ids.length > 0) lastIds.push(ids[ids.length - 1]!);
    for (const rid of ids) {
      if (seen.has(rid)) continue;
      seen.add(rid);
      const ro = await load(history, base58Decode(rid));
      if (ro) {
        outcomes.push(ro);
        await visit(ro, false);
      } else pending.push(rid);
    }
  };
  await visit(txOutcome, true);
  // nearcore's get_tx_execution_status does not wait for a receipt's last new receipt when that one
  // has not run yet and is a refund (made by `system`).
  const refunds = new Set<string>();
  for (const rid of lastIds) if (pending.includes(rid) && (await isRefund(history, rid))) refunds.add(rid);
  const allExecuted = pending.every((id) => refunds.has(id));
  const level: TxExecutionStatus = !allExecuted
    ? 'INCLUDED_FINAL'
    : pending.length === 0
      ? 'FINAL'
      : 'EXECUTED';
  const tx = JSON.parse(txRaw) as { signer_id: string; receiver_id: string };
  const [, ...receiptOutcomes] = outcomes;
  const out: Record<string, unknown> = {
    status: finalStatus(outcomes),
    transaction: new RawJson(txRaw),
    transaction_outcome: new RawJson(txOutcome.raw),
    receipts_outcome: receiptOutcomes.map((o) => new RawJson(o.raw)),
  };
  if (withReceipts) {
    // nearcore does not store the local receipt of a signer-is-receiver transaction.
    const wanted = receiptOutcomes.filter((_o, i) => !(i === 0 && tx.signer_id === tx.receiver_id));
    const raws = await Promise.all(wanted.map((o) => history.receipt(base58Decode(o.parsed.id))));
    out.receipts = raws.filter((raw) => raw !== undefined).map((raw) => new RawJson(raw));
  }
  // RpcTransactionResponse flattens the outcome view before its own final_execution_status.
  out.final_execution_status = level;
  return { answer: out, level };
}

export async function receiptView(history: HistoryReader, receiptId: CryptoHash): Promise<object> {
  const raw = await history.receipt(receiptId);
  if (raw === undefined) {
    const id = base58Encode(receiptId);
    throw new HandlerError(
      'UNKNOWN_RECEIPT',
      { receipt_id: id },
      { name: 'UNKNOWN_RECEIPT', info: { receipt_id: id } },
    );
  }
  return new RawJson(raw);
}
