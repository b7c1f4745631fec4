// Values decoded from stored rows, once per row as stored. `Store.get` hands back the same bytes
// while a row stays in its read cache and new bytes once the row is written or dropped (commit
// writes through to the cache), so a value decoded from those bytes stays true for as long as they
// are alive, and a WeakMap keeps it no longer. Serving a block decoded its JSON from UTF-8 on every
// request; with this, once per cached row.

export class DecodedRows<T> {
  private readonly memo = new WeakMap<Uint8Array, T>();

  /** Rows longer than `maxBytes` are decoded on each read rather than kept decoded beside their bytes. */
  constructor(private readonly maxBytes = Number.POSITIVE_INFINITY) {}

  /**
   * `decode(bytes)`, or what it gave for these very bytes before. `bytes` must be as `Store.get`
   * returned them, and one instance must always decode a row the same way. A refcounted column's
   * value is a new view on each read, so its rows are simply decoded each time.
   */
  of(bytes: Uint8Array, decode: (bytes: Uint8Array) => T): T {
    if (bytes.length > this.maxBytes) return decode(bytes);
    let v = this.memo.get(bytes);
    if (v === undefined) {
      v = decode(bytes);
      this.memo.set(bytes, v);
    }
    return v;
  }
}
