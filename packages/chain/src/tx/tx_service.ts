// send_tx / tx / EXPERIMENTAL_tx_status / EXPERIMENTAL_receipt: admission into the pool (expiry,
// then the runtime's checks against head state), and waits woken by block events, not by polling.
import {
  base58Encode,
  type CryptoHash,
  HandlerError,
  JsonF64,
  longTimeout,
  type RawJson,
  type TxExecutionStatus,
  toHex,
} from '@nearlite/primitives';
import { DBCol } from '@nearlite/store';
import type { BlockHeader } from '../block_header.js';
import type { ChainHandle } from '../chain_handle.js';
import type { CongestionInfo } from '../chunk.js';
import { transactionExpired } from './check_transaction.js';
import type { DecodedTransaction, TxCodecs } from './codecs.js';
import { FinalTxAnswers } from './final_answers.js';
import type { SignatureChecker } from './signature_checker.js';
import {
  finalExecutionOutcomeView,
  levelImplies,
  type TxProgress,
  txProgress,
  txWaitTimeout,
} from './tx_status.js';
import { type TxWaiter, TxWaiters } from './tx_waiters.js';

export class TransactionDecodeError extends Error {
  override readonly name = 'TransactionDecodeError';
}

/** nearcore's RpcTransactionError::InvalidTransaction for an InvalidTxError. */
export function invalidTx(err: object | string): HandlerError {
  return new HandlerError('INVALID_TRANSACTION', {}, { TxExecutionError: { InvalidTxError: withF64(err) } });
}

/**
 * ShardCongested's congestion level is an f64, written as serde_json writes one (`1.0`). It is made
 * one here, on the RPC thread: a refusal from the chain thread arrives as a message, which keeps no
 * class.
 */
function withF64(err: object | string): object | string {
  if (typeof err !== 'object' || !('ShardCongested' in err)) return err;
  const { shard_id, congestion_level } = err.ShardCongested as { shard_id: number; congestion_level: number };
  return { ShardCongested: { shard_id, congestion_level: new JsonF64(congestion_level) } };
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
  private congestion: {
    readonly head: CryptoHash;
    readonly byShard: ReadonlyMap<number, CongestionInfo>;
  } | null = null;

  /**
   * Admissions waiting on a signature verdict complete in arrival order, so a client sees the same
   * errors (a nonce already used) as if each were admitted when it arrived.
   */
  private admissions: Promise<unknown> = Promise.resolve();

  /** Each pending wait's end with TIMEOUT_ERROR, which its timer or a stop calls. */
  private readonly expirers = new Set<() => void>();

  constructor(private readonly o: TxServiceOptions) {
    this.waiters = new TxWaiters(o.chain.events);
    // No block will come: a client waiting is answered now, as its timeout would answer it, rather
    // than hold the node's stop for the whole polling timeout.
    o.chain.events.on('stopped', () => {
      this.stopped = true;
      for (const expire of [...this.expirers]) expire();
    });
  }

  /** Block production has ended: a wait begun since is answered at once. */
  private stopped = false;

  private decode(bytes: Uint8Array): DecodedTransaction {
    try {
      return this.o.codecs.decodeTransaction(bytes);
    } catch (err) {
      // The bare borsh message: the RPC layer words it for the params form it came in.
      throw new TransactionDecodeError((err as Error).message);
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
    if (!checker) return this.admit(tx, bytes, undefined);
    const verdict = checker.check(tx.signatureCheck);
    const admitted = this.admissions.then(() => verdict).then((v) => this.admit(tx, bytes, v));
    this.admissions = admitted.catch(() => undefined);
    return admitted;
  }

  private admit(tx: DecodedTransaction, bytes: Uint8Array, signatureVerdict: boolean | undefined) {
    const { chain } = this.o;
    // nearcore's order (process_tx_internal): the validity period first, so a transaction already
    // known is answered as such only while its block hash is still valid; after that a resend is
    // Expired, as any other would be.
    if (this.expired(tx)) throw invalidTx('Expired');
    // Then every check, for a transaction already known too: a copy with another signature has its
    // hash, and its key may be gone since. Only a nonce the key has used is a known one's resend, and
    // accepted as such (send_tx_internal's tx_exists), so a resend is idempotent.
    const shardId = chain.layout.accountIdToShardId(tx.signerId);
    const err = this.verify(bytes, shardId, signatureVerdict);
    if (err !== null) {
      if (isInvalidNonce(err) && this.known(tx.hash)) return tx;
      throw invalidTx(err);
    }
    // The pool's Duplicate; or one a block holds, its key's nonce moved back since (a sandbox patch):
    // a hash is included once.
    if (this.known(tx.hash)) return tx;
    // Another of this key with this nonce may be waiting too: both are pooled, as in nearcore, and
    // the chunk takes the first that is still valid when its turn comes.
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

  private expired(tx: DecodedTransaction): boolean {
    const chain = this.o.chain;
    const base = chain.chainStore.blockHeader(tx.blockHash);
    const period = chain.genesis.config.transactionValidityPeriod;
    return transactionExpired(chain.headHeader().lite.height, base?.lite.height, period);
  }

  /** The head's chunks' congestion info by shard, made once per head rather than per transaction. */
  private headCongestion(head: BlockHeader): ReadonlyMap<number, CongestionInfo> {
    if (this.congestion?.head !== head.hash) {
      const chunks = this.o.chain.chainStore.blockChunkHeaders(head.hash) ?? [];
      const byShard = new Map(chunks.map((c) => [c.inner.shardId, c.inner.congestionInfo]));
      this.congestion = { head: head.hash, byShard };
    }
    return this.congestion.byShard;
  }

  private verify(bytes: Uint8Array, shardId: number, signatureVerdict?: boolean): object | string | null {
    const head = this.o.chain.headHeader();
    return this.o.codecs.verify(bytes, {
      gasPrice: head.rest.nextGasPrice,
      blockHeight: head.lite.height + 1,
      shardId,
      congestion: this.headCongestion(head),
      ...(signatureVerdict === undefined ? {} : { signatureVerdict }),
    });
  }

  /**
   * nearcore's process_tx with check_only (chain/client/src/rpc_handler.rs): the checks of admission
   * against the head's state, the pool left out; throws INVALID_TRANSACTION with the InvalidTxError
   * when the transaction would not be taken.
   */
  private checkOnly(tx: DecodedTransaction, bytes: Uint8Array): void {
    const err = this.expired(tx)
      ? 'Expired'
      : this.verify(bytes, this.o.chain.layout.accountIdToShardId(tx.signerId));
    if (err !== null) throw invalidTx(err);
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
    // nearcore's send_tx at NONE hands the transaction over as broadcast_tx_async does and answers at
    // once: an invalid one is dropped unreported.
    if (waitUntil === 'NONE') {
      this.broadcastTxAsync(bytes);
      return { final_execution_status: 'NONE' };
    }
    const tx = await this.submitChecked(bytes);
    return (
      this.cachedFinal(tx.hash, false) ??
      this.waitFor(tx.hash, bytes, tx.signerId === tx.receiverId, waitUntil, false, {
        onDropped: () => this.checkOnly(tx, bytes),
      })
    );
  }

  async txStatus(
    query:
      | { readonly txHash: CryptoHash; readonly senderAccountId: string }
      | { readonly signedTx: Uint8Array },
    waitUntil: TxExecutionStatus,
    withReceipts: boolean,
  ): Promise<object> {
    const signed = 'signedTx' in query ? this.decode(query.signedTx) : null;
    const hash = signed ? signed.hash : (query as { readonly txHash: CryptoHash }).txHash;
    const stored = () => this.o.chain.store.get(DBCol.Transactions, hash);
    // A FINAL answer already built is the answer at every level, NONE included: no need to walk the
    // outcomes to learn that the transaction is known.
    const cached = this.cachedFinal(hash, withReceipts);
    if (cached) return cached;
    // nearcore's tx_status_fetch (chain/jsonrpc/src/lib.rs): while the view client does not know the
    // transaction (MissingTransaction: not in a chunk yet, in the pool or not), a signed one is
    // checked as send_tx would check it and an invalid one answered INVALID_TRANSACTION; at NONE it
    // is UNKNOWN_TRANSACTION then, at any other level it is checked again at each block.
    const p = this.progress(hash);
    const recheck =
      signed && (() => this.checkOnly(signed, (query as { readonly signedTx: Uint8Array }).signedTx));
    if (!p && !this.inChunk(hash)) {
      recheck?.();
      if (waitUntil === 'NONE') throw unknownTx(hash);
    }
    return this.waitFor(hash, null, null, waitUntil, withReceipts, {
      load: stored,
      ...(p ? { known: p } : {}),
      ...(recheck ? { whileUnknown: recheck, onDropped: recheck } : {}),
    });
  }

  private progress(hash: CryptoHash): TxProgress | null {
    return txProgress(this.o.chain, this.o.codecs, hash);
  }

  /**
   * In chunks made ahead of their block, which no block has run yet: their transactions are stored
   * when the chunks are made, as nearcore stores a chunk's, and nearcore's view client answers
   * INCLUDED with no outcome for a transaction it holds and has no outcome of (get_tx_status).
   */
  private inChunk(hash: CryptoHash): boolean {
    return this.o.chain.store.has(DBCol.Transactions, hash);
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
    opts: WaitOptions = {},
  ): Promise<object> {
    const { known, whileUnknown, onDropped } = opts;
    const load = opts.load ?? (() => bytes ?? undefined);
    // What to watch for in new blocks: outcome ids that would change this transaction's status.
    // Finality-based levels change with every block, so those waiters look at every block.
    const everyBlock =
      waitUntil === 'INCLUDED_FINAL' ||
      waitUntil === 'EXECUTED' ||
      waitUntil === 'FINAL' ||
      whileUnknown !== undefined;
    const hashHex = toHex(hash);
    let watch = new Set<string>([hashHex]);
    let first = true;
    let dropped = false;
    const atInclusion = levelImplies('INCLUDED', waitUntil);
    const check = (already?: TxProgress): object | null => {
      const p = already ?? this.progress(hash);
      if (!p) {
        // Known once in a chunk: a signed transaction is then no longer checked again.
        const inChunk = (atInclusion || whileUnknown !== undefined) && this.inChunk(hash);
        // The caller ran the first check of an unknown transaction already.
        if (!inChunk && !first) (dropped ? onDropped : whileUnknown)?.();
        first = false;
        return inChunk && atInclusion ? { final_execution_status: 'INCLUDED' } : null;
      }
      first = false;
      // A new set only when the ids moved on: the waiters' index re-files a waiter whose set changed.
      if (!holdsExactly(watch, p.pendingIds)) watch = new Set(p.pendingIds);
      if (!levelImplies(p.level, waitUntil)) return null;
      const txBytes = load();
      if (!txBytes) return null;
      const view = this.view(txBytes, p, withReceipts, sir);
      return p.level === 'FINAL' ? this.finalAnswers.keep(hash, withReceipts, view) : view;
    };
    const now = check(known);
    if (now) return Promise.resolve(now);
    if (this.stopped) return Promise.reject(txWaitTimeout());
    return new Promise((resolve, reject) => {
      const done = () => {
        timer.clear();
        this.waiters.remove(waiter);
        this.expirers.delete(expire);
      };
      const waiter: TxWaiter = {
        txHex: hashHex,
        everyBlock,
        atInclusion,
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
        rejected: () => {
          try {
            onDropped?.();
          } catch (err) {
            timer.clear();
            this.expirers.delete(expire);
            reject(err);
            return;
          }
          // Still valid as admission sees it: checked again at every block while it stays unknown,
          // as nearcore's loop checks it at every poll (what the chunk saw first may reach the head).
          dropped = true;
          waiter.everyBlock = true;
          this.waiters.add(waiter, watch);
        },
      };
      const expire = () => {
        done();
        reject(txWaitTimeout());
      };
      const timer = longTimeout(expire, this.o.timeoutMs);
      this.expirers.add(expire);
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

interface WaitOptions {
  /** The transaction's bytes, when the caller has none at hand. */
  readonly load?: () => Uint8Array | undefined;
  /** The progress just read by the caller, so the first check does not walk the outcomes again. */
  readonly known?: TxProgress;
  /** Run at each block while the transaction is unknown; throws to end the wait. */
  readonly whileUnknown?: () => void;
  /**
   * Run when chunks leave the transaction out as invalid, and then at every block while it is
   * unknown; throws to end the wait. Absent, or returning, the client waits on: nearcore's loop
   * never learns why a chunk dropped a transaction, and checks a signed one again as admission
   * would (a nonce above the chunk's upper bound passes that check, so its client waits to the
   * timeout).
   */
  readonly onDropped?: () => void;
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

/** The runtime's InvalidNonce, which a resend of a transaction already taken meets. */
function isInvalidNonce(err: object | string): boolean {
  return typeof err === 'object' && 'InvalidNonce' in err;
}
