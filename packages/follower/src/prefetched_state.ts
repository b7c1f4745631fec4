// A query's state, read from history before the (synchronous) view runs: the chain's view functions
// read state synchronously, history reads are async seeks. Each request prefetches the keys and
// prefixes its view can touch, as of its block, and the view reads them from memory. A contract's
// view call is the exception: its reads are not known ahead, and the worker running it waits on
// each one (`read`) instead of the whole contract state being prefetched.

import { type StatePage, StatePageMeter, type StateReader } from '@nearlite/chain';
import { bytesEqual, bytesEqualAt, compareBytes, HandlerError, toHex } from '@nearlite/primitives';
import type { HistoryReader } from './history_reader.js';
import { proofUnavailable } from './unavailable.js';

/** Entries a page's scan reads at a time, short of its limit: most pages end at 50 kB. */
const PAGE_BATCH = 256;

function sameBound(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return a === undefined || b === undefined ? a === b : bytesEqual(a, b);
}

export class PrefetchedState implements StateReader {
  private readonly values = new Map<string, Uint8Array | null>();
  private readonly given: (readonly [Uint8Array, Uint8Array | null])[] = [];
  private readonly scanned: { prefix: Uint8Array; entries: [Uint8Array, Uint8Array][] }[] = [];
  private readonly pages: {
    prefix: Uint8Array;
    after: Uint8Array | undefined;
    entries: [Uint8Array, Uint8Array][];
  }[] = [];

  constructor(
    private readonly history: HistoryReader,
    readonly height: number,
  ) {}

  async key(key: Uint8Array): Promise<this> {
    this.values.set(toHex(key), await this.history.valueAt(key, this.height));
    return this;
  }

  /** A key's value at this height known from elsewhere (null: absent): the history holds no row of it. */
  set(key: Uint8Array, value: Uint8Array | null): this {
    this.values.set(toHex(key), value);
    this.given.push([key, value]);
    return this;
  }

  /** What `set` gave: a view worker reading the history itself must be told. */
  givenRows(): readonly (readonly [Uint8Array, Uint8Array | null])[] {
    return this.given;
  }

  /**
   * The entries of a page of `prefix` above `after`, read in batches until the page's meter ends it
   * (an entry past its caps, or the end of the prefix). Only as much as the page needs is read, so
   * the scan is partial: it answers `iterPrefix` with the same bound, and says nothing of other keys.
   */
  async page(prefix: Uint8Array, after: Uint8Array | undefined, page: StatePage): Promise<this> {
    const meter = new StatePageMeter(page);
    const entries: [Uint8Array, Uint8Array][] = [];
    const batch = Math.min(page.limit ?? PAGE_BATCH, PAGE_BATCH) + 1;
    let from = after;
    // Until an entry is found with the caps reached (the view needs it to name a next page), or the
    // prefix ends: caps reached by a batch's last entry still want the next batch's first.
    let more = true;
    while (more) {
      const got = await this.history.scanAt(prefix, this.height, {
        ...(from ? { after: from } : {}),
        limit: batch,
      });
      more = got.length === batch;
      for (const e of got) {
        entries.push(e);
        if (meter.full) {
          more = false;
          break;
        }
        meter.take(e[0], e[1]);
      }
      from = got[got.length - 1]?.[0];
    }
    this.pages.push({ prefix, after, entries });
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

  *iterPrefix(prefix: Uint8Array, after?: Uint8Array): Generator<[Uint8Array, Uint8Array]> {
    const page = this.pages.find((p) => bytesEqual(p.prefix, prefix) && sameBound(p.after, after));
    if (page) {
      yield* page.entries;
      return;
    }
    const scan = this.scanned.find((s) => bytesEqualAt(s.prefix, prefix, 0));
    if (!scan)
      throw new HandlerError(
        'INTERNAL_ERROR',
        { error_message: 'prefix was not prefetched' },
        'prefix was not prefetched',
      );
    // `scanAt` returns its entries in key order: what is under this prefix and bound keeps it.
    for (const e of scan.entries)
      if (bytesEqualAt(prefix, e[0], 0) && (!after || compareBytes(e[0], after) > 0)) yield e;
  }

  iterPrefixWithProof(): never {
    throw proofUnavailable();
  }
}
