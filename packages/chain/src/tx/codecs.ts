// What the transaction service needs from the runtime's codecs, injected by the node.
import type { CryptoHash } from '@nearlite/primitives';
import type { CongestionInfo } from '../chunk.js';
import type { SignatureCheck } from './signature_checker.js';

export interface DecodedTransaction {
  readonly hash: CryptoHash;
  readonly signerId: string;
  readonly receiverId: string;
  readonly blockHash: CryptoHash;
  readonly nonce: bigint;
  /** signer id + public key. */
  readonly accessKeyId: string;
  readonly signatureCheck: SignatureCheck;
}

export type OutcomeStatus =
  | { readonly kind: 'SuccessValue'; readonly value: Uint8Array }
  | { readonly kind: 'SuccessReceiptId'; readonly receiptId: CryptoHash }
  | { readonly kind: 'Failure'; readonly error: object }
  | { readonly kind: 'Unknown' };

export interface DecodedOutcome {
  readonly receiptIds: readonly CryptoHash[];
  readonly status: OutcomeStatus;
  /**
   * nearcore's ExecutionOutcomeView (logs, receipt_ids, gas_burnt, tokens_burnt, executor_id,
   * status, metadata), serialized: a decoded outcome outlives the block that woke its waiters, and
   * one string costs the collector less than the tree of objects it was written from.
   */
  readonly viewJson: string;
}

export interface TxCodecs {
  /** Throws on malformed bytes. */
  decodeTransaction(bytes: Uint8Array): DecodedTransaction;
  transactionView(bytes: Uint8Array): object;
  receiptView(bytes: Uint8Array): object;
  decodeOutcome(bytes: Uint8Array): DecodedOutcome;
  /**
   * Checks a transaction against head state; returns nearcore's InvalidTxError JSON, or null. With
   * `signatureVerdict` the signature counts as checked already, with that result.
   */
  verify(
    bytes: Uint8Array,
    ctx: {
      readonly gasPrice: bigint;
      readonly blockHeight: number;
      readonly shardId: number;
      readonly signatureVerdict?: boolean;
      /** The head block's congestion info by shard: a congested receiver shard refuses first. */
      readonly congestion?: ReadonlyMap<number, CongestionInfo>;
    },
  ): object | string | null;
}
