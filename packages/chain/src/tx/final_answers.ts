// Serialized answers of FINAL transactions, which no later block can change: the producer's
// TxService and the follower's backend keep them instead of walking the outcome DAG per request.
// The caller checks the transaction is still kept before serving one (GC may have collected it).
import { type CryptoHash, RawJson, stringifyJson, toHex } from '@nearlite/primitives';
import { LruCache } from '@nearlite/store';

export class FinalTxAnswers {
  private readonly answers = new LruCache<string, RawJson>(32 * 1024 * 1024, (v) => v.json.length);

  private static key(hash: CryptoHash, withReceipts: boolean): string {
    const hex = toHex(hash);
    return withReceipts ? `${hex}:r` : hex;
  }

  get(hash: CryptoHash, withReceipts: boolean): RawJson | undefined {
    return this.answers.get(FinalTxAnswers.key(hash, withReceipts));
  }

  /** Keeps the answer serialized and returns it as served. */
  keep(hash: CryptoHash, withReceipts: boolean, view: object): RawJson {
    const json = new RawJson(stringifyJson(view));
    this.answers.set(FinalTxAnswers.key(hash, withReceipts), json);
    return json;
  }
}
