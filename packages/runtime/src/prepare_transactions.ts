// nearcore's prepare_transactions: which of the pool's candidates a new chunk takes, checked against
// the state the chunk will run on, in the pool iterator's turns.
import { decodeSignedTransaction } from '@nearlite/primitives';
import type { TrieUpdate } from '@nearlite/trie';
import type { CongestionControlConfig, RuntimeConfig } from './config/runtime_config.js';
import {
  type CongestionInfo,
  DEFAULT_CONGESTION_INFO,
  processTxLimit,
  shardRejectsTransactions,
} from './congestion_control.js';
import { verifyTransaction } from './verifier.js';

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
export function prepareTransactions(
  config: RuntimeConfig,
  state: TrieUpdate,
  transactions: readonly Uint8Array[],
  gasPrice: bigint,
  blockHeight: number,
  signatureVerdicts: readonly (boolean | undefined)[] | undefined,
  limits: PrepareLimits,
): PreparedTransactions {
  const accepted: number[] = [];
  const rejected: { index: number; error: unknown }[] = [];
  // Congestion control applies where the previous block's congestion is given and the config has it.
  const cc = config.congestionControl;
  const rules = limits.congestion && cc ? { congestion: limits.congestion, cc } : null;
  const gasLimit = rules
    ? processTxLimit(
        rules.congestion.shards.get(rules.congestion.shardId) ?? DEFAULT_CONGESTION_INFO,
        rules.cc,
      )
    : null;
  const sizeLimit = limits.sizeLimit ?? Number.POSITIVE_INFINITY;
  const stateLimit = config.newTransactionsValidationStateSizeSoftLimit;
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
      const verdict = checkCandidate(
        config,
        state,
        bytes,
        gasPrice,
        blockHeight,
        signatureVerdicts?.[index],
        rules,
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
function checkCandidate(
  config: RuntimeConfig,
  state: TrieUpdate,
  bytes: Uint8Array,
  gasPrice: bigint,
  blockHeight: number,
  signatureVerdict: boolean | undefined,
  rules: { congestion: NonNullable<PrepareLimits['congestion']>; cc: CongestionControlConfig } | null,
): { ok: true; gasBurnt: bigint } | { ok: false; error: unknown } {
  let stx: ReturnType<typeof decodeSignedTransaction>;
  try {
    stx = decodeSignedTransaction(bytes);
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  // A transaction to a congested shard is dropped before it is checked against the state.
  if (rules) {
    const shard = rules.congestion.accountShard(stx.transaction.receiverId);
    const info = rules.congestion.shards.get(shard);
    const congested = info ? shardRejectsTransactions(info, 0, rules.cc, shard) : null;
    if (congested !== null) return { ok: false, error: congested };
  }
  const v = verifyTransaction(state, stx, config, gasPrice, {
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
