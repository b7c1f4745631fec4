// The overlay the runtime writes through: prospective writes (one receipt or transaction) on top of
// committed ones (the chunk so far) on top of the base state. Reads are synchronous.
import { binaryKey, type CryptoHash, sha256 } from '@nearlite/primitives';
import type { TouchedNodes } from './trie.js';
import { TrieAccounting } from './trie_accounting.js';
import { TrieKeyCol } from './trie_key.js';
import type { TrieRecorder } from './trie_recorder.js';
import type {
  RawStateChangesWithTrieKey,
  StateChangeCause,
  StateChangeRecord,
  TrieUpdateResult,
} from './trie_update_types.js';

export interface StateReader {
  get(key: Uint8Array): Uint8Array | undefined;
  /** Whether `key` is present, where that is cheaper or touches less than reading it. */
  has?(key: Uint8Array): boolean;
  iterPrefix?(prefix: Uint8Array): Iterable<[Uint8Array, Uint8Array]>;
  /**
   * The length of the value at `key` from a lookup that stops at its reference (nearcore's get_ref:
   * the path is recorded, the value is not read); absent: the value is read for its length.
   */
  valueLength?(key: Uint8Array): number | undefined;
  /** Trie nodes a lookup of `key` touches in the base state (Trie.touchedNodes). */
  touchedNodes?(key: Uint8Array, accounting?: TrieAccounting): TouchedNodes;
}

const keyOf = binaryKey;
/**
 * Keys are binary strings, one char per byte (0–255), so the default sort's UTF-16 order is the
 * bytes' lexicographic order, a prefix first: no bytes are made back to compare them.
 */
const ascending = (keys: Iterable<string>): string[] => [...keys].sort();

interface Prospective {
  readonly key: Uint8Array;
  readonly value: Uint8Array | null;
}

interface Committed {
  readonly key: Uint8Array;
  value: Uint8Array | null;
  readonly changes: StateChangeRecord[];
}

/** A write's lookup (TrieUpdate.touchedNodes): its path's nodes, new and met before, and its value. */
export interface TouchedPath {
  readonly touched: number;
  readonly cached: number;
  readonly valueHash: CryptoHash | null;
}

const NONE_TOUCHED: TouchedPath = { touched: 0, cached: 0, valueHash: null };

export class TrieUpdate {
  private readonly prospective = new Map<string, Prospective>();
  /** What this update's contract storage lookups have met (one per chunk or view call, as nearcore's). */
  private accounting: TrieAccounting | undefined;
  /** Values contract reads found in the base since the last lookup, to account before the next. */
  private readValues: Uint8Array[] | null = null;
  private readonly committed = new Map<string, Committed>();

  /**
   * `recorder`: what a chunk's application records of the base trie (the base's reads record into it
   * themselves); null where nothing is recorded (views, checks before admission).
   */
  constructor(
    private readonly base: StateReader,
    readonly recorder: TrieRecorder | null = null,
  ) {}

  /** nearcore's recorded_storage_size_upper_bound: 0 when nothing is recorded. */
  recordedStorageSize(): number {
    return this.recorder?.upperBound ?? 0;
  }

  /** What the chunk so far holds for `key` (the receipt's own writes first); undefined: the base's. */
  private overlay(key: Uint8Array): Prospective | Committed | undefined {
    const k = keyOf(key);
    return this.prospective.get(k) ?? this.committed.get(k);
  }

  get(key: Uint8Array): Uint8Array | undefined {
    const o = this.overlay(key);
    if (o) return o.value ?? undefined;
    return this.base.get(key);
  }

  /**
   * The path of `key`'s lookup by nearcore's storage_write / storage_remove (MemOrTrie): nothing when
   * the chunk already wrote or removed it, else the base trie's nodes down to it, those this update's
   * lookups met before (trie_accounting.ts) as `cached`, and the value's hash when it is present,
   * for `touchValue` once the caller has paid for its bytes. A base without a trie has none.
   */
  touchedNodes(key: Uint8Array): TouchedPath {
    if (this.overlay(key)) return NONE_TOUCHED;
    const accounting = this.accounted();
    const t = this.base.touchedNodes?.(key, accounting);
    if (!t) return NONE_TOUCHED;
    return { touched: t.nodes - t.cached, cached: t.cached, valueHash: t.valueHash };
  }

  /** A value a write or remove dereferences, by hash: true when this update's lookups met it before. */
  touchValue(hash: CryptoHash): boolean {
    return this.accounted().cached(hash);
  }

  /**
   * A contract read of `key` found `value`: nearcore dereferences it through the accounting (uncharged),
   * so a later write that meets it finds it cached. A value from this chunk's own writes is not the
   * trie's. Hashed only once a write or remove looks something up: a view call never does.
   */
  readValue(key: Uint8Array, value: Uint8Array): void {
    if (this.overlay(key)) return;
    this.readValues ??= [];
    this.readValues.push(value);
  }

  private accounted(): TrieAccounting {
    this.accounting ??= new TrieAccounting();
    if (this.readValues) {
      for (const v of this.readValues) this.accounting.cached(sha256(v));
      this.readValues = null;
    }
    return this.accounting;
  }

  /** The length of the value at `key`, as nearcore's get_ref finds it: without reading the value. */
  valueLength(key: Uint8Array): number | undefined {
    const o = this.overlay(key);
    if (o) return o.value?.length;
    return this.base.valueLength ? this.base.valueLength(key) : this.base.get(key)?.length;
  }

  has(key: Uint8Array): boolean {
    const o = this.overlay(key);
    if (o) return o.value !== null;
    return this.base.has ? this.base.has(key) : this.base.get(key) !== undefined;
  }

  set(key: Uint8Array, value: Uint8Array): void {
    this.prospective.set(keyOf(key), { key, value });
  }

  remove(key: Uint8Array): void {
    // nearcore counts only contract data: removals the runtime makes itself are not a contract's
    // to exploit.
    if (this.recorder && key[0] === TrieKeyCol.ContractData) this.recorder.recordRemoval();
    this.prospective.set(keyOf(key), { key, value: null });
  }

  commit(cause: StateChangeCause): void {
    for (const [k, { key, value }] of this.prospective) {
      const c = this.committed.get(k);
      if (c) {
        c.value = value;
        c.changes.push({ cause, value });
      } else this.committed.set(k, { key, value, changes: [{ cause, value }] });
    }
    this.prospective.clear();
  }

  rollback(): void {
    this.prospective.clear();
  }

  /** Keys under `prefix` as the overlay sees them, ascending; deleted keys are hidden. */
  *iterPrefix(prefix: Uint8Array): Generator<[Uint8Array, Uint8Array]> {
    // Each entry keeps its key's bytes: only the sort goes by the binary string.
    const merged = new Map<string, Prospective>();
    if (this.base.iterPrefix)
      for (const [key, value] of this.base.iterPrefix(prefix)) merged.set(keyOf(key), { key, value });
    const p = keyOf(prefix);
    for (const [k, c] of this.committed) if (k.startsWith(p)) merged.set(k, c);
    for (const [k, v] of this.prospective) if (k.startsWith(p)) merged.set(k, v);
    for (const k of ascending(merged.keys())) {
      const { key, value } = merged.get(k)!;
      if (value) yield [key, value];
    }
  }

  finalize(): TrieUpdateResult {
    if (this.prospective.size > 0) throw new Error('finalize with uncommitted writes');
    const changes: { key: Uint8Array; value: Uint8Array | null }[] = [];
    const stateChanges: RawStateChangesWithTrieKey[] = [];
    for (const k of ascending(this.committed.keys())) {
      const { key, value, changes: records } = this.committed.get(k)!;
      changes.push({ key, value });
      stateChanges.push({ key, changes: records });
    }
    return { changes, stateChanges };
  }
}
