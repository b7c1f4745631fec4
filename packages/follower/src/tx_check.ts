// nearcore's process_tx with check_only over a followed history: what `tx` of a signed transaction
// does while no followed block holds it (chain/jsonrpc/src/lib.rs, tx_status_fetch). The producer's
// admission checks, against the state at the followed head, so an invalid transaction is answered
// INVALID_TRANSACTION at once, as on nearcore, rather than waited on until the polling timeout.
//
// The checks need the runtime's parameters and the shard layout, which this node has for the blocks
// of a chain nearlite produces (own_parameters.ts): at a head that ran others (a real network's)
// nothing is checked and the wait goes on. So too where the history cannot tell: the signer's state
// from before a history that begins after the genesis (state_from.ts), or whether a block it does
// not hold is older than the validity period. A block it does not hold may also be one it has not
// followed yet: the transaction is Expired once the followed head has moved on a few blocks without
// it.
import {
  type CongestionInfoJson,
  checkTransaction,
  congestionInfoFromView,
  type Genesis,
  invalidTx,
  type ShardLayout,
  type TransactionCheck,
  transactionCheckConfig,
  transactionExpired,
} from '@nearlite/chain';
import { bytesEqual, type CryptoHash, type SignedTransaction } from '@nearlite/primitives';
import { trieKeyAccessKey, trieKeyAccount, trieKeyGasKeyNonce } from '@nearlite/trie';
import type { HeaderFactsCache } from './header_facts.js';
import type { HistoryReader, StoredBlock } from './history_reader.js';
import { ranOwnParameters } from './own_parameters.js';
import { PrefetchedState } from './prefetched_state.js';
import { StateNotHeld } from './state_from.js';

type Congestion = NonNullable<TransactionCheck['congestion']>;

/**
 * Heights a follower waits for a transaction's block it does not hold before calling the transaction
 * Expired, as nearcore calls one whose block it does not know: the block may be one its source has
 * and it has not followed yet (a client signs against the producer's latest final block, which a
 * follower holds a block or two later).
 */
const UNKNOWN_BLOCK_GRACE = 3;

/** What one request's checks remember between the blocks it waits through. */
export interface TxCheckWait {
  /** The head at which the transaction's block was first not held. */
  unknownSince?: number;
}

interface ChunkView {
  readonly shard_id: number;
  readonly congestion_info?: CongestionInfoJson | null;
}

export class FollowerTxCheck {
  private configOf: TransactionCheck['config'] | undefined;
  private head: { readonly hash: CryptoHash; readonly congestion: Congestion } | undefined;

  constructor(
    private readonly history: HistoryReader,
    private readonly genesis: Genesis,
    /** The genesis' shard layout, which a chain nearlite produces keeps. */
    private readonly layout: ShardLayout,
    private readonly runtimeConfigView: object,
    private readonly facts: HeaderFactsCache,
  ) {}

  /** Throws INVALID_TRANSACTION where a producer at the followed head would refuse `stx`. */
  async check(stx: SignedTransaction, wait: TxCheckWait = {}): Promise<void> {
    const cursor = this.history.cursor();
    const head = cursor && (await this.history.block(cursor.hash));
    if (!head) return;
    const facts = this.facts.of(head);
    if (!ranOwnParameters(this.genesis.config, facts.protocolVersion)) return;
    const tx = stx.transaction;
    const base = await this.history.block(tx.blockHash);
    const period = this.genesis.config.transactionValidityPeriod;
    // A history that begins after the genesis, less than a validity period ago, cannot tell an
    // unknown block from one before its first.
    const first = this.history.firstHeight();
    const window = this.history.stateFrom() === null || first === null || first <= head.height - period;
    if (transactionExpired(head.height, base?.height, period)) {
      if (base === undefined) {
        if (!window) return;
        wait.unknownSince ??= head.height;
        if (head.height - wait.unknownSince < UNKNOWN_BLOCK_GRACE) return;
      }
      throw invalidTx('Expired');
    }
    const state = new PrefetchedState(this.history, head.height);
    try {
      await state.key(trieKeyAccount(tx.signerId));
      await this.prefetchKey(state, tx);
    } catch (err) {
      if (err instanceof StateNotHeld) return;
      throw err;
    }
    const err = checkTransaction(state, stx, {
      config: this.config(),
      layout: this.layout,
      gasPrice: BigInt(facts.gasPrice),
      congestion: this.congestionAt(head),
    });
    if (err !== null) throw invalidTx(err);
  }

  /**
   * The signer's key with the gas key nonces stored beneath it; where the history cannot scan (it
   * begins after the genesis), the key and the one nonce the transaction names.
   */
  private async prefetchKey(state: PrefetchedState, tx: SignedTransaction['transaction']): Promise<void> {
    try {
      await state.prefix(trieKeyAccessKey(tx.signerId, tx.publicKey));
    } catch (err) {
      if (!(err instanceof StateNotHeld)) throw err;
      await state.key(trieKeyAccessKey(tx.signerId, tx.publicKey));
      if (tx.nonceIndex !== undefined)
        await state.key(trieKeyGasKeyNonce(tx.signerId, tx.publicKey, tx.nonceIndex));
    }
  }

  /** Made on first use: most followers are never asked to check a transaction. */
  private config(): TransactionCheck['config'] {
    this.configOf ??= transactionCheckConfig(this.runtimeConfigView);
    return this.configOf;
  }

  /** The head's chunks' congestion info by shard, read once per head. */
  private congestionAt(head: StoredBlock): Congestion {
    if (this.head && bytesEqual(this.head.hash, head.hash)) return this.head.congestion;
    const chunks = (JSON.parse(head.json) as { chunks?: ChunkView[] }).chunks ?? [];
    const congestion = new Map(
      chunks.flatMap((c) =>
        c.congestion_info ? [[c.shard_id, congestionInfoFromView(c.congestion_info)] as const] : [],
      ),
    );
    this.head = { hash: head.hash, congestion };
    return congestion;
  }
}
