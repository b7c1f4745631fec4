// `tx` and `EXPERIMENTAL_tx_status` over a history, as nearcore's RPC answers them: the transaction
// as far as it has gone once that implies `wait_until`, waiting for the blocks that take it there (an
// unknown one too, but at NONE) until the polling timeout. A FINAL answer is kept serialized.
import { FinalTxAnswers, levelImplies, txWaitTimeout } from '@nearlite/chain';
import type { CryptoHash, TxExecutionStatus } from '@nearlite/primitives';
import { CursorWatch } from './cursor_watch.js';
import type { HistoryReader } from './history_reader.js';
import { txStatusView, unknownTransaction } from './tx_views.js';

/** nearcore's default rpc.polling_config.polling_timeout. */
const DEFAULT_POLLING_TIMEOUT_MS = 10_000;

export class HistoryTxStatus {
  /** Once every receipt of its DAG has an outcome, no later block changes a transaction's answer. */
  private readonly finalAnswers = new FinalTxAnswers();
  private readonly cursorWatch: CursorWatch;

  constructor(
    private readonly history: HistoryReader,
    private readonly timeoutMs = DEFAULT_POLLING_TIMEOUT_MS,
  ) {
    this.cursorWatch = new CursorWatch(() => history.cursor()?.height ?? -1);
  }

  /**
   * `check`: for a transaction given signed, nearcore's check of it while no block holds it (throws
   * INVALID_TRANSACTION), made again at each block until one does.
   */
  async status(
    hash: CryptoHash,
    waitUntil: TxExecutionStatus,
    withReceipts: boolean,
    check?: () => Promise<void>,
  ): Promise<object> {
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      // Read before the history, so a block committed in between wakes the wait below at once.
      const seen = this.history.cursor()?.height ?? -1;
      const now = await this.now(hash, withReceipts);
      if (now === null) {
        await check?.();
        if (waitUntil === 'NONE') throw unknownTransaction(hash);
      } else if (levelImplies(now.level, waitUntil)) return now.answer;
      if (!(await this.cursorWatch.next(seen, deadline))) throw txWaitTimeout();
    }
  }

  /** Ends every wait with TIMEOUT_ERROR, as the node stops: no block will be followed to answer it. */
  stop(): void {
    this.cursorWatch.stop();
  }

  private async now(
    hash: CryptoHash,
    withReceipts: boolean,
  ): Promise<{ readonly answer: object; readonly level: TxExecutionStatus } | null> {
    const cached = this.finalAnswers.get(hash, withReceipts);
    // Served while the transaction is kept: GC may have collected it since.
    if (cached && (await this.history.transaction(hash)) !== undefined)
      return { answer: cached, level: 'FINAL' };
    const view = await txStatusView(this.history, hash, withReceipts);
    if (view?.level !== 'FINAL') return view;
    return { answer: this.finalAnswers.keep(hash, withReceipts, view.answer), level: view.level };
  }
}
