// nearcore's validate_tx and verify_and_charge_transaction with check_only: whether the state a
// node's head holds would take a signed transaction. One check for a producer's admission (over its
// flat state) and a follower's `tx` of a signed transaction (over its history at the head).
import type { SignedTransaction } from '@nearlite/primitives';
import {
  type CongestionInfo,
  parseRuntimeConfig,
  type RuntimeConfig,
  shardRejectsTransactions,
  verifyTransaction,
} from '@nearlite/runtime';
import { type StateReader, TrieUpdate } from '@nearlite/trie';
import type { ShardLayout } from '../shard_layout.js';

export interface TransactionCheck {
  readonly config: RuntimeConfig;
  readonly layout: Pick<ShardLayout, 'accountIdToShardId'>;
  /** The head's next gas price, which the transaction's cost is reckoned at. */
  readonly gasPrice: bigint;
  /** The head block's congestion info by shard: a congested receiver shard refuses first. */
  readonly congestion?: ReadonlyMap<number, CongestionInfo>;
  /** A signature verdict reached before the check; without it the signature is checked here. */
  readonly signatureVerdict?: boolean;
}

/**
 * nearcore's transaction validity period: a transaction names a block the node holds (`baseHeight`
 * undefined: it holds none by that hash), no more than `period` heights below the head.
 */
export function transactionExpired(
  headHeight: number,
  baseHeight: number | undefined,
  period: number,
): boolean {
  return baseHeight === undefined || headHeight > baseHeight + period;
}

/** The InvalidTxError `stx` meets against `state`, or null when it would be taken. */
export function checkTransaction(
  state: StateReader,
  stx: SignedTransaction,
  c: TransactionCheck,
): object | string | null {
  if (c.congestion) {
    const shard = c.layout.accountIdToShardId(stx.transaction.receiverId);
    const info = c.congestion.get(shard);
    const err = info && shardRejectsTransactions(info, 0, c.config.congestionControl, shard);
    if (err) return err;
  }
  const r = verifyTransaction(new TrieUpdate(state), stx, c.config, c.gasPrice, {
    charge: false,
    ...(c.signatureVerdict === undefined ? {} : { signatureVerdict: c.signatureVerdict }),
  });
  return r.ok ? null : r.error;
}

/** The runtime parameters a check reckons with, from their view (a node outside the chain's process). */
export function transactionCheckConfig(runtimeConfigView: object): RuntimeConfig {
  return parseRuntimeConfig(runtimeConfigView);
}
