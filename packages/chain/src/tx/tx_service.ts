// send_tx / tx / EXPERIMENTAL_tx_status / EXPERIMENTAL_receipt: admission into the pool (expiry,
// then the runtime's checks against head state), and waits woken by block events, not by polling.
import {
  base58Encode,
  type CryptoHash,
  HandlerError,
  type RawJson,
  type TxExecutionStatus,
  toHex,
} from '@nearlite/primitives';
import { DBCol } from '@nearlite/store';
import type { ChainHandle } from '../chain_handle.js';
import type { DecodedTransaction, TxCodecs } from './codecs.js';
import { FinalTxAnswers } from './final_answers.js';
import type { SignatureChecker } from './signature_checker.js';
import { finalExecutionOutcomeView, satisfies, type TxProgress, txProgress } from './tx_status.js';
import { type TxWaiter, TxWaiters } from './tx_waiters.js';

export class TransactionDecodeError extends Error {
  override readonly name = 'TransactionDecodeError';
}

function invalidTx(err: object | string): HandlerError {
  return new HandlerError('INVALID_TRANSACTION', {}, { TxExecutionError: { InvalidTxError: err } });
}

export interface TxServiceOptions {
  readonly chain: ChainHandle;
  readonly codecs: TxCodecs;
  /** How long a wait may take before TIMEOUT_ERROR (nearcore's polling_timeout). */
  readonly timeoutMs: number;
  /** Checks signatures before admission (on worker threads); without it admission checks them inline. */
  readonly signatures?: SignatureChecker;
}

export class TxService {
  private readonly finalAnswers = new FinalTxAnswers();
  private readonly waiters: TxWaiters;

  /**
   * Admissions waiting on a signature verdict complete in arrival order, so a client sees the same
   * errors (a pending nonce, a nonce already used) as if each were admitted when it arrived.
   */
  private admissions: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: TxServiceOptions) {
    this.waiters = new TxWaiters(o.chain.events);
  }

  private decode(bytes: Uint8Array): DecodedTransaction {
    try {
      return this.o.codecs.decodeTransaction(bytes);
    } catch (err) {
      throw new TransactionDecodeError(`Failed to decode transaction: ${(err as Error).message}`);
    }
  }

  private known(hash: CryptoHash): boolean {
    return this.o.chain.pool.has(hash) || this.o.chain.store.get(DBCol.TransactionBlock, hash) !== undefined;
  }

  /** Validates and queues a transaction; a transaction already known is accepted again as is. */
  submit(bytes: Uint8Array): DecodedTransaction {
    return this.admit(this.decode(bytes), bytes, undefined);
  }

  /**
   * Like submit, with the signature checked by the signature checker first (if there is one): the
   * checks then run in nearcore's order, with the verdict standing in for the signature check.
   */
  private submitChecked(bytes: Uint8Array): DecodedTransaction | Promise<DecodedTransaction> {
    const tx = this.decode(bytes);
    const checker = this.o.signatures;
    if (!checker || this.known(tx.hash)) return this.admit(tx, bytes, undefined);
    const verdict = checker.check(tx.signatureCheck);
    const admitted = this.admissions.then(() => verdict).then((v) => this.admit(tx, bytes, v));
    this.admissions = admitted.catch(() => undefined);
    return admitted;
  }

  private admit(tx: DecodedTransaction, bytes: Uint8Array, signatureVerdict: boolean | undefined) {
    const { chain, codecs } = this.o;
    if (this.known(tx.hash)) return tx;
    const head = chain.headHeader();
    const base = chain.chainStore.blockHeader(tx.blockHash);
    const validity = chain.genesis.config.transactionValidityPeriod;
    if (!base || head.lite.height > base.lite.height + validity) throw invalidTx('Expired');
    if (chain.pool.hasPendingNonce(tx.accessKeyId, tx.nonce)) {
      // Another transaction of this key with this nonce is already waiting for a chunk.
      throw invalidTx({ InvalidNonce: { tx_nonce: tx.nonce, ak_nonce: tx.nonce } });
    }
    const shardId = chain.layout.accountIdToShardId(tx.signerId);
    const err = codecs.verify(bytes, {
      gasPrice: head.rest.nextGasPrice,
      blockHeight: head.lite.height + 1,
      shardId,
      ...(signatureVerdict === undefined ? {} : { signatureVerdict }),
    });
    if (err !== null) throw invalidTx(err);
    chain.pool.add({
      hash: tx.hash,
      bytes,
      shardId,
      accessKeyId: tx.accessKeyId,
      nonce: tx.nonce,
      ...(signatureVerdict === true ? { signatureVerified: true } : {}),
    });
    return tx;
  }

  broadcastTxAsync(bytes: Uint8Array): string {
    const tx = this.decode(bytes);
    // nearcore's broadcast_tx_async reports only decode errors; the rest of admission may finish
    // after the answer, as nearcore's does.
    const ignore = (err: unknown) => {
      if (!(err instanceof HandlerError)) throw err;
    };
    try {
      const r = this.submitChecked(bytes);
      // Nobody waits on a late failure (a store read failing) any more: it must not end the process.
      if (r instanceof Promise) r.catch(() => undefined);
    } catch (err) {
      ignore(err);
    }
    return base58Encode(tx.hash);
  }

  async sendTx(bytes: Uint8Array, waitUntil: TxExecutionStatus): Promise<object> {
    const tx = await this.submitChecked(bytes);
    if (waitUntil === 'NONE') return { final_execution_status: 'NONE' };
    return (
      this.cachedFinal(tx.hash, false) ??
      this.waitFor(tx.hash, bytes, tx.signerId === tx.receiverId, waitUntil, false)
    );
  }

  async txStatus(
    query:
      | { readonly txHash: CryptoHash; readonly senderAccountId: string }
      | { readonly signedTx: Uint8Array },
    waitUntil: TxExecutionStatus,
    withReceipts: boolean,
  ): Promise<object> {
    let hash: CryptoHash;
    if ('signedTx' in query) hash = this.decode(query.signedTx).hash;
    else hash = query.txHash;
    const stored = () => this.o.chain.store.get(DBCol.Transactions, hash);
    // A FINAL answer already built is the answer at every level, NONE included: no need to walk the
    // outcomes to learn that the transaction is known.
    const cached = this.cachedFinal(hash, withReceipts);
    if (cached) return cached;
    let known: TxProgress | undefined;
    if (waitUntil === 'NONE') {
      const p = this.progress(hash);
      if (!p && !this.o.chain.pool.has(hash)) throw unknownTx(hash);
      if (!p) return { final_execution_status: 'NONE' };
      known = p;
    }
    return this.waitFor(hash, null, null, waitUntil, withReceipts, stored, known);
  }

  private progress(hash: CryptoHash): TxProgress | null {
    return txProgress(this.o.chain, this.o.codecs, hash);
  }

  private view(bytes: Uint8Array, p: TxProgress, withReceipts: boolean, sir: boolean | null): object {
    const { chain, codecs } = this.o;
    const signerIsReceiver =
      sir ??
      (() => {
        const d = codecs.decodeTransaction(bytes);
        return d.signerId === d.receiverId;
      })();
    return finalExecutionOutcomeView(chain, codecs, bytes, p, withReceipts, signerIsReceiver);
  }

  /** The transaction's FINAL answer if built before, while its block is kept (GC may have collected it since). */
  private cachedFinal(hash: CryptoHash, withReceipts: boolean): RawJson | undefined {
    const cached = this.finalAnswers.get(hash, withReceipts);
    return cached && this.o.chain.store.has(DBCol.TransactionBlock, hash) ? cached : undefined;
  }

  /** Callers serve a FINAL answer kept from before (`cachedFinal`) first; this builds or waits. */
  private waitFor(
    hash: CryptoHash,
    bytes: Uint8Array | null,
    sir: boolean | null,
    waitUntil: TxExecutionStatus,
    withReceipts: boolean,
    load: () => Uint8Array | undefined = () => bytes ?? undefined,
    /** The progress just read by the caller, so the first check does not walk the outcomes again. */
    known?: TxProgress,
  ): Promise<object> {
    // What to watch for in new blocks: outcome ids that would change this transaction's status.
    // Finality-based levels change with every block, so those waiters look at every block.
    const everyBlock = waitUntil === 'INCLUDED_FINAL' || waitUntil === 'EXECUTED' || waitUntil === 'FINAL';
    const hashHex = toHex(hash);
    let watch = new Set<string>([hashHex]);
    const check = (already?: TxProgress): object | null => {
      const p = already ?? this.progress(hash);
      // A new set only when the ids moved on: the waiters' index re-files a waiter whose set changed.
      if (p && !holdsExactly(watch, p.pendingIds)) watch = new Set(p.pendingIds);
      if (!satisfies(p, waitUntil) || !p) return null;
      const txBytes = load();
      if (!txBytes) return null;
      const view = this.view(txBytes, p, withReceipts, sir);
      return p.level === 'FINAL' ? this.finalAnswers.keep(hash, withReceipts, view) : view;
    };
    const now = check(known);
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.remove(waiter);
      };
      const waiter: TxWaiter = {
        txHex: hashHex,
        everyBlock,
        woken: () => {
          try {
            const r = check();
            if (r) {
              done();
              resolve(r);
            } else this.waiters.watch(waiter, watch);
          } catch (err) {
            done();
            reject(err);
          }
        },
        // Left out of the chunk as invalid (e.g. a nonce another transaction used first).
        rejected: (dropped) => {
          clearTimeout(timer);
          reject(invalidTx(dropped as object | string));
        },
      };
      const timer = setTimeout(() => {
        this.waiters.remove(waiter);
        reject(new HandlerError('TIMEOUT_ERROR', undefined, 'Timeout'));
      }, this.o.timeoutMs);
      this.waiters.add(waiter, watch);
    });
  }

  receipt(receiptId: CryptoHash): object {
    const bytes = this.o.chain.store.get(DBCol.Receipts, receiptId);
    if (!bytes) {
      const id = base58Encode(receiptId);
      throw new HandlerError(
        'UNKNOWN_RECEIPT',
        { receipt_id: id },
        { name: 'UNKNOWN_RECEIPT', info: { receipt_id: id } },
      );
    }
    return this.o.codecs.receiptView(bytes);
  }
}

function holdsExactly(set: ReadonlySet<string>, ids: readonly string[]): boolean {
  if (set.size !== ids.length) return false;
  for (const id of ids) if (!set.has(id)) return false;
  return true;
}

function unknownTx(hash: CryptoHash): HandlerError {
  const h = base58Encode(hash);
  return new HandlerError(
    'UNKNOWN_TRANSACTION',
    { requested_transaction_hash: h },
    `Transaction ${h} doesn't exist`,
  );
}
