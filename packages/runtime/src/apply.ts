// Applying a chunk as nearcore's Runtime::apply does: transactions become receipts (a signer-is-
// receiver receipt runs in this chunk, others go out to the receiver's shard), then local, delayed
// and incoming receipts run while the chunk's gas limit allows; the rest wait in the delayed queue.
// Then yields whose timeout height has come are resolved (NEP-519). A PromiseYield receipt, and
// (since 83) an action receipt that only deletes its account and waits for no data, is "instant":
// it runs right after the receipt that made it instead of travelling as an outgoing receipt. Every
// state step is committed with nearcore's StateChangeCause; a failing receipt rolls
// back.
import {
  type CryptoHash,
  decodeReceipt,
  decodeSignedTransaction,
  encodeReceipt,
  type PublicKey,
  type Receipt,
  receiptIdFromReceipt,
  receiptIdFromTransaction,
} from '@nearlite/primitives';
import type { TrieUpdate } from '@nearlite/trie';
import type { PromiseResult } from '@nearlite/vm';
import { runBandwidthScheduler, type ShardCongestion } from './bandwidth_scheduler.js';
import type { RuntimeConfig } from './config/runtime_config.js';
import {
  type CongestionInfo,
  DEFAULT_CONGESTION_INFO,
  finalizeAllowedShard,
  processTxLimit,
  shardRejectsTransactions,
} from './congestion_control.js';
import { DelayedReceiptQueue } from './delayed_receipts.js';
import type { FunctionCallRunner } from './function_call.js';
import { applyGlobalContractDistribution } from './global_contracts.js';
import { type ExecutionOutcome, encodeOutcome, outcomeHashes } from './outcome.js';
import { applyDataReceipt, applyPromiseResume, postponeIfWaiting } from './postponed.js';
import { setPromiseYieldReceipt } from './promise_yield.js';
import { type ExecContext, executeActionReceipt, type ReceiptResult } from './receipt_exec.js';
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

/** What stops prepare_transactions taking more candidates, besides their running out. */
export interface PrepareLimits {
  /** Bytes of the taken transactions together (combined_transactions_size_limit); absent: none. */
  readonly sizeLimit?: number;
  /**
   * The congestion info of each shard's chunk in the previous block (nearcore's
   * block_congestion_info; this chain misses no chunks, so none counts missed chunks). It sets the
   * chunk's transaction gas limit and refuses transactions to congested shards; absent: neither.
   */
  readonly congestion?: {
    readonly shardId: number;
    readonly shards: ReadonlyMap<number, CongestionInfo>;
    readonly accountShard: (accountId: string) => number;
  };
  /**
   * Per candidate, the (signer, key) group it belongs to, the candidates being in the pool's round
   * robin. As nearcore's pool iterator, each group's turn goes on to its next transaction when one
   * is rejected, until one is taken; absent: every candidate a group of its own.
   */
  readonly groups?: readonly string[];
}

export interface PreparedTransactions {
  readonly accepted: number[];
  readonly rejected: { index: number; error: unknown }[];
  /** Candidates not looked at because a limit was reached: they wait for a later chunk. */
  readonly untaken: number[];
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
    runBandwidthScheduler(
      state,
      shardIds,
      ctx.blockCongestion ?? ownBlockCongestion(ctx, shardIds),
      config.bandwidthScheduler,
      config.congestionControl,
    );
    const local: Receipt[] = [];
    for (const bytes of transactions) {
      const r = this.applyTransaction(ctx, state, bytes, res);
      if (r) local.push(r);
    }
    const delayed = new DelayedReceiptQueue(state, this.o.config);
    const prevCongestion = ctx.congestionInfo ?? bootstrapCongestionInfo(ctx, delayed);
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
      res.outgoingReceipts.push({
        receiptId: resume.receiptId,
        receiverId: resume.receiverId,
        bytes: encodeReceipt(resume),
      });
    }
    delayed.flush();
    res.delayedReceipts = delayed.length;
    res.congestionInfo = ownCongestionInfo(ctx, prevCongestion, delayed);
    return res;
  }

  /**
   * nearcore's prepare_transactions: checks the chunk's candidate transactions against the state as
   * they would leave it, so a transaction made invalid by an earlier one (a reused nonce, a spent
   * balance) is left out of the chunk instead of failing in it. The candidates go group by group
   * (`limits.groups`), each turn taking one transaction of its group. Candidates stop being taken
   * once the gas burnt converting the taken ones reaches `limits.gasLimit` (the transaction that
   * crosses it is still in), before one whose bytes would take the total past
   * `limits.sizeLimit`, or once the checks so far have recorded more of the state than
   * new_transactions_validation_state_size_soft_limit (when `state` records: the transaction that
   * crosses it is still in); those left are `untaken`, for a later chunk.
   */
  prepareTransactions(
    state: TrieUpdate,
    transactions: readonly Uint8Array[],
    gasPrice: bigint,
    blockHeight: number,
    /** Per transaction, a signature verdict reached before (at admission); absent: check it here. */
    signatureVerdicts?: readonly (boolean | undefined)[],
    limits: PrepareLimits = {},
  ): PreparedTransactions {
    const accepted: number[] = [];
    const rejected: { index: number; error: unknown }[] = [];
    const congestion = limits.congestion;
    const cc = congestion ? this.o.config.congestionControl : null;
    const gasLimit =
      congestion && cc
        ? processTxLimit(congestion.shards.get(congestion.shardId) ?? DEFAULT_CONGESTION_INFO, cc)
        : null;
    const sizeLimit = limits.sizeLimit ?? Number.POSITIVE_INFINITY;
    const stateLimit = this.o.config.newTransactionsValidationStateSizeSoftLimit;
    let totalGasBurnt = 0n;
    let totalSize = 0;
    const queues = candidateGroups(transactions.length, limits.groups);
    const next = new Array<number>(queues.length).fill(0);
    // Group turns round robin; a group with candidates left after its turn goes to the back.
    const turns = queues.map((_, g) => g);
    turnsLoop: for (let t = 0; t < turns.length; t++) {
      if (gasLimit !== null && totalGasBurnt >= gasLimit) break;
      // What the signers' accounts and keys read so far would add to the chunk's state witness.
      if (state.recordedStorageSize() > stateLimit) break;
      const g = turns[t]!;
      const queue = queues[g]!;
      while (next[g]! < queue.length) {
        const index = queue[next[g]!]!;
        const bytes = transactions[index]!;
        if (totalSize + bytes.length > sizeLimit) break turnsLoop;
        next[g]!++;
        const verdict = this.checkCandidate(
          state,
          bytes,
          gasPrice,
          blockHeight,
          signatureVerdicts?.[index],
          limits,
        );
        if (verdict.ok) {
          accepted.push(index);
          totalGasBurnt += verdict.gasBurnt;
          totalSize += bytes.length;
          break;
        }
        rejected.push({ index, error: verdict.error });
      }
      if (next[g]! < queue.length) turns.push(g);
    }
    const untaken: number[] = [];
    queues.forEach((queue, g) => {
      for (let i = next[g]!; i < queue.length; i++) untaken.push(queue[i]!);
    });
    untaken.sort((a, b) => a - b);
    return { accepted, rejected, untaken };
  }

  /** One candidate against the state as the candidates taken before it leave it; taken, it stays applied. */
  private checkCandidate(
    state: TrieUpdate,
    bytes: Uint8Array,
    gasPrice: bigint,
    blockHeight: number,
    signatureVerdict: boolean | undefined,
    limits: PrepareLimits,
  ): { ok: true; gasBurnt: bigint } | { ok: false; error: unknown } {
    let stx: ReturnType<typeof decodeSignedTransaction>;
    try {
      stx = decodeSignedTransaction(bytes);
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
    // A transaction to a congested shard is dropped before it is checked against the state.
    const congestion = limits.congestion;
    const cc = this.o.config.congestionControl;
    if (congestion && cc) {
      const shard = congestion.accountShard(stx.transaction.receiverId);
      const info = congestion.shards.get(shard);
      const congested = info ? shardRejectsTransactions(info, 0, cc, shard) : null;
      if (congested !== null) return { ok: false, error: congested };
    }
    const v = verifyTransaction(state, stx, this.o.config, gasPrice, {
      blockHeight,
      charge: true,
      ...(signatureVerdict === undefined ? {} : { signatureVerdict }),
    });
    if (!v.ok) {
      state.rollback();
      return { ok: false, error: v.error };
    }
    state.commit({ type: 'not_writable_to_disk' });
    return { ok: true, gasBurnt: v.cost.gasBurnt };
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
  ): Receipt | null {
    let stx: ReturnType<typeof decodeSignedTransaction>;
    try {
      stx = decodeSignedTransaction(bytes);
    } catch {
      return null;
    }
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
    res.outgoingReceipts.push({ receiptId, receiverId: receipt.receiverId, bytes: encodeReceipt(receipt) });
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
      if (next) res.outgoingReceipts.push(appliedReceipt(next));
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
      res.outgoingReceipts.push(appliedReceipt(n));
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

/** The congestion info of a shard's state as it stands, from its delayed queue (no buffers here). */
function bootstrapCongestionInfo(ctx: ApplyContext, delayed: DelayedReceiptQueue): CongestionInfo {
  const { gas, bytes } = delayed.congestionTotals();
  return {
    ...DEFAULT_CONGESTION_INFO,
    delayedReceiptsGas: gas,
    receiptBytes: bytes,
    allowedShard: ctx.shardId,
  };
}

/**
 * The previous chunk's congestion info with this chunk's delayed-queue changes, and the allowed shard
 * picked by nearcore's seed: block height plus the shard's index in the layout.
 */
function ownCongestionInfo(
  ctx: ApplyContext,
  prev: CongestionInfo,
  delayed: DelayedReceiptQueue,
): CongestionInfo {
  const allShards = ctx.shardIds ?? [ctx.shardId];
  const shardIndex = Math.max(0, allShards.indexOf(ctx.shardId));
  return {
    delayedReceiptsGas: prev.delayedReceiptsGas + delayed.newDelayedGas - delayed.removedDelayedGas,
    bufferedReceiptsGas: prev.bufferedReceiptsGas,
    receiptBytes: prev.receiptBytes + delayed.newDelayedBytes - delayed.removedDelayedBytes,
    allowedShard: finalizeAllowedShard(ctx.shardId, allShards, ctx.blockHeight + shardIndex),
  };
}

/**
 * nearcore's Receipt::is_instant_receipt: cheap receipts handled in the chunk that made them, past
 * the gas limit. Parking a yield is one write; deleting an account is a few.
 */
function isInstantReceipt(r: Receipt): boolean {
  const ar = r.receipt;
  if (ar.kind !== 'Action') return false;
  if (ar.isPromiseYield) return true;
  return ar.actions.length === 1 && ar.actions[0]!.type === 'DeleteAccount' && ar.inputDataIds.length === 0;
}

/** The candidates' indices per group, the groups in the order they first come. */
function candidateGroups(count: number, groups: readonly string[] | undefined): number[][] {
  if (!groups) return Array.from({ length: count }, (_, i) => [i]);
  const byKey = new Map<string, number[]>();
  const out: number[][] = [];
  for (let i = 0; i < count; i++) {
    const key = groups[i]!;
    let queue = byKey.get(key);
    if (!queue) {
      queue = [];
      byKey.set(key, queue);
      out.push(queue);
    }
    queue.push(i);
  }
  return out;
}
