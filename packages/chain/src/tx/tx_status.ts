// Transaction status as nearcore computes it: the outcome DAG from the transaction's outcome through
// every receipt it caused (depth-first, as get_recursive_transaction_results), its final status, and
// how far along it is (TxExecutionStatus).
import {
  base58Encode,
  bytesEqualAt,
  type CryptoHash,
  concatBytes,
  HandlerError,
  RawJson,
  stringifyJson,
  type TxExecutionStatus,
  toBase64,
  toHex,
} from '@nearlite/primitives';
import { DBCol, DecodedRows } from '@nearlite/store';
import type { ChainHandle } from '../chain_handle.js';
import type { MerklePathItem } from '../merkle.js';
import { decodeStoredOutcome, storedOutcomeBytes, storedOutcomePath } from '../outcome_store.js';
import type { DecodedOutcome, TxCodecs } from './codecs.js';
import { isRefundReceipt } from './recent_refunds.js';

/** One outcome of a transaction's DAG, read from its row. */
export interface LoadedOutcome {
  readonly id: CryptoHash;
  readonly blockHash: CryptoHash;
  readonly height: number;
  readonly decoded: DecodedOutcome;
  /** Its merkle path inside the chunk's outcome root, read from the row when asked for. */
  readonly proof: readonly MerklePathItem[];
  /** nearcore's ExecutionOutcomeWithIdView (proof, block_hash, id, outcome), serialized. */
  readonly withIdJson: string;
}

export interface TxProgress {
  /** nearcore's get_tx_execution_status; what a wait is compared with (`levelImplies`). */
  readonly level: TxExecutionStatus;
  readonly outcomes: readonly LoadedOutcome[];
  /** The receipts whose outcome does not exist yet (hex): what a waiter watches for in new blocks. */
  readonly pendingIds: readonly string[];
}

/** A decoded outcome row; its answer text is written once, by the first answer that needs it. */
interface DecodedRow {
  readonly decoded: DecodedOutcome;
  readonly bytes: Uint8Array;
  withIdJson: string | undefined;
}

/**
 * Outcome rows decoded once per row as the store holds it (DecodedRows), per codecs: a waiter checks
 * a transaction's outcomes on every block that touches it, and clients poll `tx` until it is final,
 * each time decoding every outcome and writing its view again. What is kept of a row is what the
 * checks read (receipt ids, status) and the answer's text: strings rather than trees of objects,
 * since each row outlives the block that woke its waiters and the collector moves every object
 * that does.
 */
const decodedRows = new WeakMap<TxCodecs, DecodedRows<DecodedRow>>();

function decodeRow(codecs: TxCodecs, bytes: Uint8Array): DecodedRow {
  let rows = decodedRows.get(codecs);
  if (!rows) {
    rows = new DecodedRows<DecodedRow>();
    decodedRows.set(codecs, rows);
  }
  return rows.of(bytes, (b) => ({
    decoded: codecs.decodeOutcome(storedOutcomeBytes(b)),
    bytes: b,
    withIdJson: undefined,
  }));
}

class LoadedRow implements LoadedOutcome {
  constructor(
    readonly id: CryptoHash,
    readonly blockHash: CryptoHash,
    readonly height: number,
    private readonly row: DecodedRow,
  ) {}

  get decoded(): DecodedOutcome {
    return this.row.decoded;
  }

  get proof(): readonly MerklePathItem[] {
    return decodeStoredOutcome(this.row.bytes).proof;
  }

  get withIdJson(): string {
    this.row.withIdJson ??= outcomeWithIdJson(this, this.row.bytes);
    return this.row.withIdJson;
  }
}

export function loadOutcome(
  chain: ChainHandle,
  codecs: TxCodecs,
  id: CryptoHash,
  blockHash: CryptoHash,
): LoadedOutcome | null {
  const bytes = chain.store.get(DBCol.TransactionResultForBlock, concatBytes(id, blockHash));
  const header = chain.chainStore.blockHeader(blockHash);
  if (!bytes || !header) return null;
  return new LoadedRow(id, blockHash, header.lite.height, decodeRow(codecs, bytes));
}

export function txProgress(chain: ChainHandle, codecs: TxCodecs, txHash: CryptoHash): TxProgress | null {
  const blockHash = chain.store.get(DBCol.TransactionBlock, txHash);
  if (!blockHash) return null;
  const txOutcome = loadOutcome(chain, codecs, txHash, blockHash);
  if (!txOutcome) return null;
  const outcomes: LoadedOutcome[] = [];
  const pendingIds: string[] = [];
  const seen = new Set<string>();
  const lastIds: CryptoHash[] = [];
  const visit = (o: LoadedOutcome, isTx: boolean) => {
    outcomes.push(o);
    const ids = o.decoded.receiptIds;
    if (!isTx && ids.length > 0) lastIds.push(ids[ids.length - 1]!);
    for (const rid of ids) {
      const k = toHex(rid);
      if (seen.has(k)) continue;
      seen.add(k);
      const rb = chain.store.get(DBCol.ReceiptBlock, rid);
      const ro = rb ? loadOutcome(chain, codecs, rid, rb) : null;
      if (ro) visit(ro, false);
      else {
        pendingIds.push(k);
      }
    }
  };
  visit(txOutcome, true);
  const finalHash = chain.headHeader().rest.lastFinalBlock;
  const finalHeight =
    chain.chainStore.blockHeader(finalHash)?.lite.height ?? chain.genesis.config.genesisHeight;
  // Every receipt ran, refunds included; every receipt but the refunds ran. nearcore's
  // get_tx_execution_status does not wait for a receipt's last new receipt when that one has not run
  // yet and is a refund (made by `system`); any other receipt is waited for.
  const executedWithRefunds = pendingIds.length === 0;
  const pending = new Set(pendingIds);
  const refunds = new Set<string>();
  for (const rid of lastIds) {
    const k = toHex(rid);
    if (pending.has(k) && isRefund(chain, rid, k)) refunds.add(k);
  }
  const executed = pendingIds.every((k) => refunds.has(k));
  const txFinal = txOutcome.height <= finalHeight;
  const allFinal = outcomes.every((o) => o.height <= finalHeight);
  const level: TxExecutionStatus = !txFinal
    ? executed
      ? 'EXECUTED_OPTIMISTIC'
      : 'INCLUDED'
    : !executed
      ? 'INCLUDED_FINAL'
      : executedWithRefunds && allFinal
        ? 'FINAL'
        : 'EXECUTED';
  return { level, outcomes, pendingIds };
}

/**
 * Whether a receipt was made by `system`: named a refund by a recent block, or read from the store.
 * One in neither is waited for, as nearcore does.
 */
function isRefund(chain: ChainHandle, receiptId: CryptoHash, hex: string): boolean {
  if (chain.sentRefund(hex)) return true;
  const bytes = chain.store.get(DBCol.Receipts, receiptId);
  return bytes !== undefined && isRefundReceipt(bytes);
}

/**
 * Whether a transaction at `level` has reached what a request waits for (nearcore's rule: a status
 * satisfies every level it implies, so INCLUDED_FINAL does not satisfy EXECUTED_OPTIMISTIC).
 */
export function levelImplies(level: TxExecutionStatus, wanted: TxExecutionStatus): boolean {
  switch (wanted) {
    case 'NONE':
      return true;
    case 'INCLUDED':
      return level !== 'NONE';
    case 'EXECUTED_OPTIMISTIC':
      return level === 'EXECUTED_OPTIMISTIC' || level === 'EXECUTED' || level === 'FINAL';
    case 'INCLUDED_FINAL':
      return level === 'INCLUDED_FINAL' || level === 'EXECUTED' || level === 'FINAL';
    case 'EXECUTED':
      return level === 'EXECUTED' || level === 'FINAL';
    case 'FINAL':
      return level === 'FINAL';
  }
}

/** nearcore's answer when a wait for a transaction outlasts rpc.polling_config.polling_timeout (HTTP 408). */
export function txWaitTimeout(): HandlerError {
  return new HandlerError('TIMEOUT_ERROR', undefined, 'Timeout');
}

/**
 * base58 of the hashes a block's answers share: the block's own and the upper nodes of its outcome
 * tree, which are in the proof of every outcome beneath them. Encoding one costs ~1 µs; finding it
 * here, by its first six bytes and then compared whole, a small fraction of that. The ids, each in
 * one answer only, are encoded directly.
 */
const sharedHashText = new Map<number, { readonly hash: CryptoHash; readonly text: string }>();
const SHARED_HASH_TEXT_MAX = 4096;

/** The 32-byte hash at `at` in `bytes`, in base58. */
function sharedBase58(bytes: Uint8Array, at = 0): string {
  const k =
    (bytes[at]! * 65536 + ((bytes[at + 1]! << 8) | bytes[at + 2]!)) * 16777216 +
    ((bytes[at + 3]! << 16) | (bytes[at + 4]! << 8) | bytes[at + 5]!);
  const known = sharedHashText.get(k);
  if (known !== undefined && bytesEqualAt(known.hash, bytes, at)) return known.text;
  if (sharedHashText.size >= SHARED_HASH_TEXT_MAX) sharedHashText.clear();
  // A copy: the hash lies in a stored row.
  const hash = bytes.slice(at, at + 32);
  const text = base58Encode(hash);
  sharedHashText.set(k, { hash, text });
  return text;
}

/**
 * Its text, with the shared hashes' base58 looked up; every part is base58 or JSON already. Joined
 * from an array, so the row keeps one flat string rather than a tree of concatenations. The path is
 * read in place from the stored row (`row`), without an object per step.
 */
function outcomeWithIdJson(o: LoadedOutcome, row: Uint8Array): string {
  const parts = ['{"proof":['];
  const path = storedOutcomePath(row);
  for (let i = 0, at = path.at; i < path.length; i++, at += 33) {
    parts.push(
      i === 0 ? '{"hash":"' : ',{"hash":"',
      sharedBase58(row, at),
      row[at + 32] === 0 ? '","direction":"Left"}' : '","direction":"Right"}',
    );
  }
  parts.push('],"block_hash":"', sharedBase58(o.blockHash), '","id":"', base58Encode(o.id), '","outcome":');
  parts.push(o.decoded.viewJson, '}');
  return parts.join('');
}

/** nearcore's FinalExecutionStatus: follow SuccessReceiptId to the receipt that produced the value. */
function finalStatus(p: TxProgress): object | string {
  const byId = new Map(p.outcomes.map((o) => [toHex(o.id), o]));
  let cur: LoadedOutcome | undefined = p.outcomes[0];
  for (let guard = 0; cur && guard < 10_000; guard++) {
    const s = cur.decoded.status;
    if (s.kind === 'Failure') return { Failure: s.error };
    if (s.kind === 'SuccessValue') return { SuccessValue: toBase64(s.value) };
    if (s.kind === 'Unknown') return 'Started';
    cur = byId.get(toHex(s.receiptId));
  }
  return 'Started';
}

/** nearcore's FinalExecutionOutcomeView (with `receipts`: its WithReceipts form), serialized. */
export function finalExecutionOutcomeView(
  chain: ChainHandle,
  codecs: TxCodecs,
  txBytes: Uint8Array,
  p: TxProgress,
  withReceipts: boolean,
  signerIsReceiver: boolean,
): RawJson {
  const [txOutcome, ...receiptOutcomes] = p.outcomes;
  const parts = [
    '{"status":',
    stringifyJson(finalStatus(p)),
    ',"transaction":',
    stringifyJson(codecs.transactionView(txBytes)),
    ',"transaction_outcome":',
    txOutcome!.withIdJson,
    ',"receipts_outcome":[',
  ];
  for (const [i, o] of receiptOutcomes.entries()) parts.push(i === 0 ? o.withIdJson : `,${o.withIdJson}`);
  parts.push(']');
  if (withReceipts) {
    const receipts: object[] = [];
    receiptOutcomes.forEach((o, i) => {
      if (i === 0 && signerIsReceiver) return;
      const bytes = chain.store.get(DBCol.Receipts, o.id);
      if (bytes) receipts.push(codecs.receiptView(bytes));
    });
    parts.push(',"receipts":', stringifyJson(receipts));
  }
  // RpcTransactionResponse flattens the outcome view before its own final_execution_status.
  parts.push(`,"final_execution_status":"${p.level}"}`);
  return new RawJson(parts.join(''));
}
