// Applying a chunk as nearcore's Runtime::apply does: transactions become receipts (a signer-is-
// receiver receipt runs in this chunk, others go out to the receiver's shard), then local, delayed
// and incoming receipts run while the chunk's gas limit allows; the rest wait in the delayed queue.
// Then yields whose timeout height has come are resolved (NEP-519). A PromiseYield receipt, and
// (since 83) an action receipt that only deletes its account and waits for no data, is "instant":
// it runs right after the receipt that made it instead of travelling as an outgoing receipt. Every
// state step is committed with nearcore's StateChangeCause; a failing receipt rolls
// back.
import {
  binaryKey,
  type CryptoHash,
  decodeReceipt,
  decodeSignedTransaction,
  encodeReceipt,
  isInstantReceipt,
  type PublicKey,
  type Receipt,
  receiptIdFromReceipt,
  receiptIdFromTransaction,
} from '@nearlite/primitives';
import type { TrieUpdate } from '@nearlite/trie';
import type { PromiseResult } from '@nearlite/vm';
import { runBandwidthScheduler, type ShardCongestion } from './bandwidth_scheduler.js';
import type { RuntimeConfig } from './config/runtime_config.js';
import { type CongestionInfo, DEFAULT_CONGESTION_INFO, finalizeAllowedShard } from './congestion_control.js';
import { DelayedReceiptQueue } from './delayed_receipts.js';
import type { FunctionCallRunner } from './function_call.js';
import { applyGlobalContractDistribution } from './global_contracts.js';
import { type ExecutionOutcome, encodeOutcome, outcomeHashes } from './outcome.js';
import { applyDataReceipt, applyPromiseResume, postponeIfWaiting } from './postponed.js';
import {
  type PreparedTransactions,
  type PrepareLimits,
  prepareTransactions,
} from './prepare_transactions.js';
import { setPromiseYieldReceipt } from './promise_yield.js';
import { type ExecContext, executeActionReceipt, type ReceiptResult } from './receipt_exec.js';
import { bufferedCongestionTotals, ReceiptSink } from './receipt_sink.js';
import { specReceipt } from './receipt_spec.js';
import { updateValidatorAccounts, type ValidatorAccountsUpdate } from './validator_accounts.js';
import { verifyTransaction } from './verifier.js';
import { resolvePromiseYieldTimeouts } from './yield_timeouts.js';

/** nearcore's ApplyState, the part this runtime reads. */
export interface ApplyContext {
  readonly shardId: number;
  readonly blockHeight: number;
  readonly blockHash: CryptoHash;
  readonly prevBlockHash: CryptoHash;
  /** Nanoseconds. */
  readonly blockTimestamp: bigint;
  readonly epochId: CryptoHash;
  readonly epochHeight: number;
  readonly gasPrice: bigint;
  readonly gasLimit: bigint;
  readonly randomSeed: CryptoHash;
  readonly accountShard: (accountId: string) => number;
  /** The shard layout's ids in order (global contract distribution visits each); default: this shard. */
  readonly shardIds?: readonly number[];
  /**
   * The least non-zero stake a Stake action may ask for: nearcore's EpochManager::minimum_stake, the
   * next epoch's seat price over minimum_stake_divisor. Absent: 0, as for an epoch with no validators.
   */
  readonly minimumStake?: bigint;
  /** The shard's congestion info after its previous chunk (its chunk extra); absent: none. */
  readonly congestionInfo?: CongestionInfo;
  /**
   * Every shard's chunk in this block, by shard id, as the bandwidth scheduler reads them (nearcore's
   * block_congestion_info). Absent: every shard of `shardIds` with a new chunk, this shard's info its
   * `congestionInfo`, the others' empty.
   */
  readonly blockCongestion?: ReadonlyMap<number, ShardCongestion>;
  /** Set in the first block of an epoch: the ended epoch's rewards (nearcore's validator_accounts_update). */
  readonly validatorAccountsUpdate?: ValidatorAccountsUpdate;
  /** The epoch's validators and stakes (`validator_stake`); absent: the runtime's own. */
  readonly validators?: ReadonlyMap<string, bigint>;
}

export interface AppliedOutcome {
  readonly id: CryptoHash;
  readonly bytes: Uint8Array;
  readonly hashes: readonly CryptoHash[];
  readonly isTransaction: boolean;
}

export interface AppliedReceipt {
  readonly receiptId: CryptoHash;
  readonly receiverId: string;
  readonly bytes: Uint8Array;
  /** Set on a global contract distribution receipt: it goes to this shard, not its receiver's. */
  readonly targetShard?: number;
}

export interface ProcessedReceipt extends AppliedReceipt {
  /**
   * One of the chunk's incoming receipts, as it came (its bytes are the caller's): a chain has
   * stored it already, as an outgoing receipt of an earlier chunk.
   */
  readonly incoming: boolean;
}

export interface ApplyResult {
  readonly outcomes: AppliedOutcome[];
  /** Receipts for the next block, to be routed to their receiver's shard by the chain. */
  readonly outgoingReceipts: AppliedReceipt[];
  /** Receipts executed, postponed or delayed by this chunk. */
  readonly processedReceipts: ProcessedReceipt[];
  gasUsed: bigint;
  /**
   * The compute the chunk's transactions and receipts took (nearcore's total compute): what its
   * gas limit bounds, as a deployment and storage access take more compute than gas.
   */
  computeUsage: bigint;
  balanceBurnt: bigint;
  readonly validatorProposals: { accountId: string; publicKey: PublicKey; stake: bigint }[];
  /** Receipts waiting in the delayed queue after this chunk. */
  delayedReceipts: number;
  /** The shard's congestion info after this chunk, for the next chunk's header. */
  congestionInfo: CongestionInfo;
}

export interface RuntimeOptions {
  readonly config: RuntimeConfig;
  /** The chain's id (genesis `chain_id`), which contracts read with the `chain_id` host function. */
  readonly chainId: string;
  readonly validators: ReadonlyMap<string, bigint>;
  readonly functionCall?: FunctionCallRunner;
}

function appliedReceipt(r: Receipt): AppliedReceipt {
  const base = { receiptId: r.receiptId, receiverId: r.receiverId, bytes: encodeReceipt(r) };
  const x = r.receipt;
  return x.kind === 'GlobalContractDistribution' ? { ...base, targetShard: Number(x.targetShard) } : base;
}

export class Runtime {
  /** Where the chunk being applied sends its receipts (null outside `applyChunk`). */
  private sink: ReceiptSink | null = null;
  /** What every receipt of a chunk runs with, made once per chunk (its ApplyContext). */
  private exec: { readonly ctx: ApplyContext; readonly value: ExecContext } | null = null;

  constructor(readonly o: RuntimeOptions) {}

  private execContext(ctx: ApplyContext): ExecContext {
    if (this.exec?.ctx !== ctx) {
      const { config, chainId, functionCall } = this.o;
      const validators = ctx.validators ?? this.o.validators;
      const value = { ...ctx, config, chainId, validators, ...(functionCall ? { functionCall } : {}) };
      this.exec = { ctx, value };
    }
    return this.exec.value;
  }

  applyChunk(
    ctx: ApplyContext,
    state: TrieUpdate,
    transactions: readonly Uint8Array[],
    incoming: readonly Uint8Array[],
  ): ApplyResult {
    const res: ApplyResult = {
      outcomes: [],
      outgoingReceipts: [],
      processedReceipts: [],
      gasUsed: 0n,
      computeUsage: 0n,
      balanceBurnt: 0n,
      validatorProposals: [],
      delayedReceipts: 0,
      congestionInfo: DEFAULT_CONGESTION_INFO,
    };
    if (ctx.validatorAccountsUpdate)
      updateValidatorAccounts(state, ctx.validatorAccountsUpdate, ctx.shardId, ctx.accountShard);
    const shardIds = ctx.shardIds ?? [ctx.shardId];
    const { config } = this.o;
    const blockCongestion = ctx.blockCongestion ?? ownBlockCongestion(ctx, shardIds);
    runBandwidthScheduler(
      state,
      shardIds,
      blockCongestion,
      config.bandwidthScheduler,
      config.congestionControl,
    );
    const sink = new ReceiptSink(
      state,
      config,
      ctx.shardId,
      (r) => r.targetShard ?? ctx.accountShard(r.receiverId),
      blockCongestion,
      res.outgoingReceipts,
    );
    this.sink = sink;
    try {
      this.applyWithSink(ctx, state, transactions, incoming, res, sink);
    } finally {
      this.sink = null;
    }
    return res;
  }

  private applyWithSink(
    ctx: ApplyContext,
    state: TrieUpdate,
    transactions: readonly Uint8Array[],
    incoming: readonly Uint8Array[],
    res: ApplyResult,
    sink: ReceiptSink,
  ): void {
    const delayed = new DelayedReceiptQueue(state, this.o.config);
    // Before anything moves: a bootstrap reads the queue and buffers as the last chunk left them.
    const prevCongestion = ctx.congestionInfo ?? bootstrapCongestionInfo(ctx, state, this.o.config, delayed);
    // Receipts buffered by earlier chunks go first, as far as the limits allow.
    sink.forwardFromBuffers(ctx.shardIds ?? [ctx.shardId]);
    const local: Receipt[] = [];
    // nearcore's UniqueChunkTransactions (85): a transaction's hash is its outcome id, so a repeat of
    // one earlier in the chunk is skipped before it makes a second outcome under that id.
    const seen = new Set<string>();
    for (const bytes of transactions) {
      const r = this.applyTransaction(ctx, state, bytes, res, seen);
      if (r) local.push(r);
    }
    // nearcore stops at the chunk's compute limit, or once the storage proof recorded so far passes
    // its soft limit; what is left waits in the delayed queue.
    const proofLimit = this.o.config.mainStorageProofSizeSoftLimit;
    const full = () => res.computeUsage >= ctx.gasLimit || state.recordedStorageSize() > proofLimit;
    const delay = (receipt: Receipt, incomingBytes?: Uint8Array) => {
      delayed.push(receipt);
      this.recordProcessed(res, receipt, incomingBytes);
    };
    for (const receipt of local) {
      if (full()) delay(receipt);
      else this.processReceipt(ctx, state, receipt, res);
    }
    while (delayed.length > 0 && !full()) {
      const receipt = delayed.pop()!;
      this.processReceipt(ctx, state, receipt, res);
    }
    for (const bytes of incoming) {
      const receipt = decodeReceipt(bytes);
      if (full()) delay(receipt, bytes);
      else this.processReceipt(ctx, state, receipt, res, bytes);
    }
    for (const resume of resolvePromiseYieldTimeouts(ctx, state, full)) {
      this.emit(res, resume, {
        receiptId: resume.receiptId,
        receiverId: resume.receiverId,
        bytes: encodeReceipt(resume),
      });
    }
    delayed.flush();
    res.delayedReceipts = delayed.length;
    res.congestionInfo = ownCongestionInfo(ctx, prevCongestion, delayed, sink);
  }

  /** A receipt for another chunk: through the sink while a chunk is applied. */
  private emit(res: ApplyResult, receipt: Receipt, applied: AppliedReceipt): void {
    if (this.sink) this.sink.forwardOrBuffer(applied, receipt);
    else res.outgoingReceipts.push(applied);
  }

  /** nearcore's prepare_transactions with this runtime's config (`prepare_transactions.ts`). */
  prepareTransactions(
    state: TrieUpdate,
    transactions: readonly Uint8Array[],
    gasPrice: bigint,
    blockHeight: number,
    /** Per transaction, a signature verdict reached before (at admission); absent: check it here. */
    signatureVerdicts?: readonly (boolean | undefined)[],
    limits: PrepareLimits = {},
  ): PreparedTransactions {
    return prepareTransactions(
      this.o.config,
      state,
      transactions,
      gasPrice,
      blockHeight,
      signatureVerdicts,
      limits,
    );
  }

  /** `incomingBytes`: the receipt is one of the chunk's incoming ones, and these are its bytes. */
  private recordProcessed(res: ApplyResult, receipt: Receipt, incomingBytes?: Uint8Array): void {
    res.processedReceipts.push({
      receiptId: receipt.receiptId,
      receiverId: receipt.receiverId,
      bytes: incomingBytes ?? encodeReceipt(receipt),
      incoming: incomingBytes !== undefined,
    });
  }

  private pushOutcome(res: ApplyResult, o: ExecutionOutcome, isTransaction: boolean): void {
    res.outcomes.push({ id: o.id, bytes: encodeOutcome(o), hashes: outcomeHashes(o), isTransaction });
  }

  private applyTransaction(
    ctx: ApplyContext,
    state: TrieUpdate,
    bytes: Uint8Array,
    res: ApplyResult,
    seen: Set<string>,
  ): Receipt | null {
    let stx: ReturnType<typeof decodeSignedTransaction>;
    try {
      stx = decodeSignedTransaction(bytes);
    } catch {
      return null;
    }
    const key = binaryKey(stx.hash);
    if (seen.has(key)) return null;
    seen.add(key);
    const tx = stx.transaction;
    const v = verifyTransaction(state, stx, this.o.config, ctx.gasPrice, {
      blockHeight: ctx.blockHeight,
      charge: true,
    });
    const base = { id: stx.hash, logs: [], executorId: tx.signerId, metadata: { version: 1 } } as const;
    if (!v.ok) {
      state.rollback();
      this.pushOutcome(
        res,
        {
          ...base,
          receiptIds: [],
          gasBurnt: 0n,
          tokensBurnt: 0n,
          status: { kind: 'Failure', error: { InvalidTxError: v.error } },
        },
        true,
      );
      return null;
    }
    state.commit({ type: 'transaction_processing', txHash: stx.hash });
    const receiptId = receiptIdFromTransaction(stx.hash, ctx.blockHeight);
    const receipt: Receipt = {
      predecessorId: tx.signerId,
      receiverId: tx.receiverId,
      receiptId,
      receipt: {
        kind: 'Action',
        signerId: tx.signerId,
        signerPublicKey: tx.publicKey,
        gasPrice: v.cost.receiptGasPrice,
        outputDataReceivers: [],
        inputDataIds: [],
        actions: tx.actions,
      },
    };
    res.gasUsed += v.cost.gasBurnt;
    // Converting a transaction takes the compute of its send fees, which is their gas.
    res.computeUsage += v.cost.gasBurnt;
    res.balanceBurnt += v.cost.burntAmount;
    this.pushOutcome(
      res,
      {
        ...base,
        receiptIds: [receiptId],
        gasBurnt: v.cost.gasBurnt,
        tokensBurnt: v.cost.burntAmount,
        status: { kind: 'SuccessReceiptId', receiptId },
      },
      true,
    );
    if (tx.signerId === tx.receiverId) return receipt;
    this.emit(res, receipt, { receiptId, receiverId: receipt.receiverId, bytes: encodeReceipt(receipt) });
    return null;
  }

  /**
   * Runs one receipt now (or parks it until its promise results arrive), then the instant receipts
   * it produced, in order (nearcore's process_receipt_and_instant_receipts).
   */
  processReceipt(
    ctx: ApplyContext,
    state: TrieUpdate,
    receipt: Receipt,
    res: ApplyResult,
    incomingBytes?: Uint8Array,
  ): void {
    const queue: Receipt[] = this.processOne(ctx, state, receipt, res, incomingBytes);
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      queue.push(...this.processOne(ctx, state, next, res));
    }
  }

  /** Returns the instant receipts this receipt produced. */
  private processOne(
    ctx: ApplyContext,
    state: TrieUpdate,
    receipt: Receipt,
    res: ApplyResult,
    incomingBytes?: Uint8Array,
  ): Receipt[] {
    this.recordProcessed(res, receipt, incomingBytes);
    const r = receipt.receipt;
    if (r.kind === 'GlobalContractDistribution') {
      const shardIds = ctx.shardIds ?? [ctx.shardId];
      const { next, compute } = applyGlobalContractDistribution(
        { ...ctx, shardIds, config: this.o.config },
        state,
        receipt,
      );
      res.computeUsage += compute;
      if (next) this.emit(res, next, appliedReceipt(next));
      return [];
    }
    let ready: { receipt: Receipt; results: PromiseResult[] } | null;
    if (r.kind === 'Data') {
      ready = r.isPromiseResume ? applyPromiseResume(state, receipt) : applyDataReceipt(state, receipt);
    } else if (r.isPromiseYield) {
      setPromiseYieldReceipt(state, receipt);
      state.commit({ type: 'postponed_receipt', receiptHash: receipt.receiptId });
      ready = null;
    } else ready = postponeIfWaiting(state, receipt);
    if (!ready) return [];
    const run = ready.receipt;
    const result = executeActionReceipt(this.execContext(ctx), state, run, ready.results);
    return this.finishReceipt(ctx, run, result, res);
  }

  private finishReceipt(ctx: ApplyContext, receipt: Receipt, r: ReceiptResult, res: ApplyResult): Receipt[] {
    const newReceipts: Receipt[] = r.newReceipts.map((n, k) =>
      specReceipt(n, receiptIdFromReceipt(receipt.receiptId, ctx.blockHeight, k)),
    );
    const instant: Receipt[] = [];
    for (const n of newReceipts) {
      if (isInstantReceipt(n)) {
        instant.push(n);
        continue;
      }
      this.emit(res, n, appliedReceipt(n));
    }
    res.gasUsed += r.gasBurnt;
    res.computeUsage += r.computeUsage;
    res.balanceBurnt += r.balanceBurnt;
    res.validatorProposals.push(...r.validatorProposals);
    const status: ExecutionOutcome['status'] = r.error
      ? { kind: 'Failure', error: r.error }
      : r.returnReceiptIndex !== null
        ? { kind: 'SuccessReceiptId', receiptId: newReceipts[r.returnReceiptIndex]!.receiptId }
        : { kind: 'SuccessValue', value: r.returnValue ?? new Uint8Array(0) };
    this.pushOutcome(
      res,
      {
        id: receipt.receiptId,
        logs: r.logs,
        receiptIds: newReceipts.filter((n) => n.receipt.kind === 'Action').map((n) => n.receiptId),
        gasBurnt: r.gasBurnt,
        tokensBurnt: r.tokensBurnt,
        executorId: receipt.receiverId,
        status,
        // Protocol 85's ExecutionMetadataV4: the profile plus the per-action contracts.
        metadata: { version: 4, profile: r.profile, contracts: r.contracts },
      },
      false,
    );
    return instant;
  }
}

/** A block whose every chunk is new, with nothing known of the other shards' congestion. */
function ownBlockCongestion(ctx: ApplyContext, shardIds: readonly number[]): Map<number, ShardCongestion> {
  return new Map(
    shardIds.map((id) => [
      id,
      {
        congestionInfo: (id === ctx.shardId ? ctx.congestionInfo : undefined) ?? {
          ...DEFAULT_CONGESTION_INFO,
          allowedShard: id,
        },
        missedChunksCount: 0,
      },
    ]),
  );
}

/** The congestion info of a shard's state as it stands, from its delayed queue and outgoing buffers. */
function bootstrapCongestionInfo(
  ctx: ApplyContext,
  state: TrieUpdate,
  config: RuntimeConfig,
  delayed: DelayedReceiptQueue,
): CongestionInfo {
  const { gas, bytes } = delayed.congestionTotals();
  const buffered = bufferedCongestionTotals(state, config);
  return {
    delayedReceiptsGas: gas,
    bufferedReceiptsGas: buffered.gas,
    receiptBytes: bytes + buffered.bytes,
    allowedShard: ctx.shardId,
  };
}

/**
 * The previous chunk's congestion info with this chunk's changes to the delayed queue and the outgoing
 * buffers, and the allowed shard picked by nearcore's seed: block height plus the shard's index in
 * the layout.
 */
function ownCongestionInfo(
  ctx: ApplyContext,
  prev: CongestionInfo,
  delayed: DelayedReceiptQueue,
  sink: ReceiptSink,
): CongestionInfo {
  const allShards = ctx.shardIds ?? [ctx.shardId];
  const shardIndex = Math.max(0, allShards.indexOf(ctx.shardId));
  return {
    delayedReceiptsGas: prev.delayedReceiptsGas + delayed.newDelayedGas - delayed.removedDelayedGas,
    bufferedReceiptsGas: prev.bufferedReceiptsGas + sink.bufferedGas - sink.forwardedGas,
    receiptBytes:
      prev.receiptBytes +
      delayed.newDelayedBytes -
      delayed.removedDelayedBytes +
      sink.bufferedBytes -
      sink.forwardedBytes,
    allowedShard: finalizeAllowedShard(ctx.shardId, allShards, ctx.blockHeight + shardIndex),
  };
}
