// Applying a chunk: transactions become receipts (a signer-is-receiver receipt runs in the same
// chunk, others go out to the receiver's shard), then local, delayed and incoming receipts run.
// Every state step is committed with nearcore's StateChangeCause; a failing receipt rolls back.
import {
  actionHash,
  type CryptoHash,
  decodeReceipt,
  decodeSignedTransaction,
  encodeReceipt,
  KeyType,
  type Receipt,
  receiptIdFromReceipt,
  receiptIdFromTransaction,
} from '@nearlite/primitives';
import type { TrieUpdate } from '@nearlite/trie';
import type { RuntimeConfig } from './config/runtime_config.js';
import type { FunctionCallRunner } from './function_call.js';
import { type ExecutionOutcome, encodeOutcome, outcomeHashes } from './outcome.js';
import { applyDataReceipt, postponeIfWaiting } from './postponed.js';
import { executeActionReceipt, type ReceiptResult } from './receipt_exec.js';
import { verifyTransaction } from './verifier.js';

export interface ApplyContext {
  readonly shardId: number;
  readonly blockHeight: number;
  readonly blockHash: CryptoHash;
  readonly prevBlockHash: CryptoHash;
  readonly blockTimestamp: bigint;
  readonly epochId: CryptoHash;
  readonly epochHeight: number;
  readonly gasPrice: bigint;
  readonly gasLimit: bigint;
  readonly randomSeed: CryptoHash;
  readonly accountShard: (accountId: string) => number;
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
}

export interface ApplyResult {
  readonly outcomes: AppliedOutcome[];
  readonly outgoingReceipts: AppliedReceipt[];
  readonly processedReceipts: AppliedReceipt[];
  gasUsed: bigint;
  balanceBurnt: bigint;
  readonly validatorProposals: {
    accountId: string;
    publicKey: import('@nearlite/primitives').PublicKey;
    stake: bigint;
  }[];
}

export interface RuntimeOptions {
  readonly config: RuntimeConfig;
  readonly validators: ReadonlyMap<string, bigint>;
  readonly functionCall?: FunctionCallRunner;
}

const SYSTEM_KEY = { keyType: KeyType.ED25519, data: new Uint8Array(32) };

export class Runtime {
  constructor(readonly o: RuntimeOptions) {}

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
      balanceBurnt: 0n,
      validatorProposals: [],
    };
    const local: Receipt[] = [];
    for (const bytes of transactions) {
      const r = this.applyTransaction(ctx, state, bytes, res);
      if (r) local.push(r);
    }
    const queue: Receipt[] = [...local, ...incoming.map(decodeReceipt)];
    for (const receipt of queue) this.processReceipt(ctx, state, receipt, res);
    return res;
  }

  /**
   * nearcore's prepare_transactions: checks the chunk's candidate transactions in order against the
   * state as they would leave it, so a transaction made invalid by an earlier one (a reused nonce,
   * a spent balance) is left out of the chunk instead of failing in it.
   */
  prepareTransactions(
    state: TrieUpdate,
    transactions: readonly Uint8Array[],
    gasPrice: bigint,
    blockHeight: number,
  ): { accepted: number[]; rejected: { index: number; error: unknown }[] } {
    const accepted: number[] = [];
    const rejected: { index: number; error: unknown }[] = [];
    transactions.forEach((bytes, index) => {
      let stx: ReturnType<typeof decodeSignedTransaction>;
      try {
        stx = decodeSignedTransaction(bytes);
      } catch (err) {
        rejected.push({ index, error: (err as Error).message });
        return;
      }
      const v = verifyTransaction(state, stx, this.o.config, gasPrice, { blockHeight, charge: true });
      if (v.ok) {
        state.commit({ type: 'not_writable_to_disk' });
        accepted.push(index);
      } else {
        state.rollback();
        rejected.push({ index, error: v.error });
      }
    });
    return { accepted, rejected };
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
    if (!v.ok) {
      state.rollback();
      this.pushOutcome(
        res,
        {
          id: stx.hash,
          logs: [],
          receiptIds: [],
          gasBurnt: 0n,
          tokensBurnt: 0n,
          executorId: tx.signerId,
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
    res.balanceBurnt += v.cost.burntAmount;
    this.pushOutcome(
      res,
      {
        id: stx.hash,
        logs: [],
        receiptIds: [receiptId],
        gasBurnt: v.cost.gasBurnt,
        tokensBurnt: v.cost.burntAmount,
        executorId: tx.signerId,
        status: { kind: 'SuccessReceiptId', receiptId },
      },
      true,
    );
    if (tx.signerId === tx.receiverId) return receipt;
    res.outgoingReceipts.push({ receiptId, receiverId: receipt.receiverId, bytes: encodeReceipt(receipt) });
    return null;
  }

  processReceipt(ctx: ApplyContext, state: TrieUpdate, receipt: Receipt, res: ApplyResult): void {
    res.processedReceipts.push({
      receiptId: receipt.receiptId,
      receiverId: receipt.receiverId,
      bytes: encodeReceipt(receipt),
    });
    let ready: { receipt: Receipt; results: import('@nearlite/vm').PromiseResult[] } | null;
    if (receipt.receipt.kind === 'Data') {
      ready = applyDataReceipt(state, receipt);
    } else {
      ready = postponeIfWaiting(state, receipt);
    }
    if (!ready) return;
    const result = executeActionReceipt(
      {
        ...ctx,
        config: this.o.config,
        validators: this.o.validators,
        ...(this.o.functionCall ? { functionCall: this.o.functionCall } : {}),
        actionHash: (i: number) => actionHash(ready.receipt.receiptId, ctx.blockHeight, i),
      },
      state,
      ready.receipt,
      ready.results,
    );
    this.finishReceipt(ctx, ready.receipt, result, res);
  }

  private finishReceipt(ctx: ApplyContext, receipt: Receipt, r: ReceiptResult, res: ApplyResult): void {
    const newReceipts: Receipt[] = r.newReceipts.map((n, k) => ({
      predecessorId: n.predecessorId,
      receiverId: n.receiverId,
      receiptId: receiptIdFromReceipt(receipt.receiptId, ctx.blockHeight, k),
      receipt:
        n.kind === 'Data'
          ? { kind: 'Data', dataId: n.dataId, data: n.data }
          : {
              kind: 'Action',
              signerId: n.signerId,
              signerPublicKey: n.signerPublicKey ?? SYSTEM_KEY,
              gasPrice: n.gasPrice,
              outputDataReceivers: n.outputDataReceivers,
              inputDataIds: n.inputDataIds,
              actions: n.actions,
            },
    }));
    for (const n of newReceipts)
      res.outgoingReceipts.push({
        receiptId: n.receiptId,
        receiverId: n.receiverId,
        bytes: encodeReceipt(n),
      });
    res.gasUsed += r.gasBurnt;
    res.balanceBurnt += r.tokensBurnt - r.reward;
    res.balanceBurnt += r.lostBalance;
    res.validatorProposals.push(...r.validatorProposals);
    const returnIndex = r.returnReceiptIndex;
    const status: ExecutionOutcome['status'] = r.error
      ? { kind: 'Failure', error: r.error }
      : returnIndex !== null
        ? { kind: 'SuccessReceiptId', receiptId: newReceipts[returnIndex]!.receiptId }
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
      },
      false,
    );
  }
}
