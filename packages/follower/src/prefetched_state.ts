// A query's state, read from history before the (synchronous) view runs: the chain's view functions
// read state synchronously, history reads are async seeks. Each request prefetches the keys and
// prefixes its view can touch, as of its block, and the view reads them from memory. A contract's
// view call is the exception: its reads are not known ahead, and the worker running it waits on
// each one (`read`) instead of the whole contract state being prefetched.

import type { StateReader } from '@nearlite/chain';
import { bytesEqualAt, compareBytes, HandlerError, toHex } from '@nearlite/primitives';
import type { HistoryReader } from './history_reader.js';

export class PrefetchedState implements StateReader {
  private readonly values = new Map<string, Uint8Array | null>();
  private readonly scanned: { prefix: Uint8Array; entries: [Uint8Array, Uint8Array][] }[] = [];

  constructor(
    private readonly history: HistoryReader,
    readonly height: number,
  ) {}

  async key(key: Uint8Array): Promise<this> {
    this.values.set(toHex(key), await this.history.valueAt(key, this.height));
    return this;
  }

  async prefix(prefix: Uint8Array): Promise<this> {
    const entries = await this.history.scanAt(prefix, this.height);
    this.scanned.push({ prefix, entries });
    for (const [k, v] of entries) this.values.set(toHex(k), v);
    return this;
  }

  /** A key's value at this height: prefetched, or read from history now (a view call's lazy read). */
  async read(key: Uint8Array): Promise<Uint8Array | undefined> {
    const hex = toHex(key);
    if (this.values.has(hex)) return this.values.get(hex) ?? undefined;
    return (await this.history.valueAt(key, this.height)) ?? undefined;
  }

  get(key: Uint8Array): Uint8Array | undefined {
    const hex = toHex(key);
    if (this.values.has(hex)) return this.values.get(hex) ?? undefined;
    // A key under a scanned prefix that the scan did not return is absent at this height.
    if (this.scanned.some((s) => bytesEqualAt(s.prefix, key, 0))) return undefined;
    throw new HandlerError(
      'INTERNAL_ERROR',
      { error_message: 'state read outside the prefetched keys' },
      'state read outside the prefetched keys',
    );
  }

  *iterPrefix(prefix: Uint8Array): Generator<[Uint8Array, Uint8Array]> {
    const scan = this.scanned.find((s) => bytesEqualAt(s.prefix, prefix, 0));
    if (!scan)
      throw new HandlerError(
        'INTERNAL_ERROR',
        { error_message: 'prefix was not prefetched' },
        'prefix was not prefetched',
      );
    const sorted = scan.entries
      .filter(([k]) => bytesEqualAt(prefix, k, 0))
      .sort((a, b) => compareBytes(a[0], b[0]));
    yield* sorted;
  }

  iterPrefixWithProof(): never {
    throw proofUnavailable();
  }
}

/** `include_proof` needs the trie's nodes, which no follower has: the stream carries no trie. */
export function proofUnavailable(): HandlerError {
  const message =
    'this node follows a block stream and keeps state as history, without trie nodes: it cannot prove state (include_proof); ask a validator or archival node';
  return new HandlerError('INTERNAL_ERROR', { error_message: message }, message);
}

/** Global contract code travels in distribution receipts, not in the stream's state changes. */
export function globalCodeUnavailable(): HandlerError {
  const message =
    'this node follows a block stream, which does not carry global contract code; ask a validator or archival node';
  return new HandlerError('INTERNAL_ERROR', { error_message: message }, message);
}
