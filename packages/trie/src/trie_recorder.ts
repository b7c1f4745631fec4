// nearcore's TrieRecorder, as far as the protocol sees it: every chunk is applied recording the trie
// nodes and values its lookups touch (the state witness), and two limits read the recorded size. A
// function call fails once what its receipt added passes per_receipt_storage_proof_size_limit
// (RecordedStorageExceeded), and a chunk stops taking receipts once its total passes
// main_storage_proof_size_soft_limit. Only sizes are kept here: nothing is proven to anyone.
import type { CryptoHash } from '@nearlite/primitives';
import { HashSet32 } from './hash_set32.js';
import { encodedNodeLength, type RawNode, type ValueRef } from './raw_node.js';
import { isEmptyRoot, type TouchedNodes, type Trie } from './trie.js';
import type { TrieAccounting } from './trie_accounting.js';

/** What nearcore adds to the upper bound for each removal a contract makes (nearcore#10890). */
export const REMOVAL_UPPER_BOUND_BYTES = 2000;

/**
 * A node of the base trie a lookup has walked, with the children walked from it: the part of the trie
 * touched so far, so that a later lookup through it (the upper levels, every time) steps down by a
 * slot index instead of finding each node again.
 */
interface Walked {
  readonly node: RawNode;
  readonly hash: CryptoHash;
  /** The node's stored bytes, what recording it costs. */
  readonly length: number;
  /** A branch's walked children by slot; an extension's one child in slot 0. */
  kids: (Walked | undefined)[] | null;
  /** The recorders (one bit each) that have recorded the node, and its value. */
  recordedBy: number;
  valueRecordedBy: number;
}

/**
 * What the recorders of one trie have walked of it, shared: a chunk's transactions are checked
 * (prepare_transactions) and then applied on the same state, each recording on its own, and the
 * second finds the signers' paths already walked.
 */
export class TrieWalk {
  root: Walked | null = null;
  private recorders = 0;

  constructor(readonly trie: Trie) {}

  /** A bit of its own for a recorder, to mark what it has recorded. */
  claim(): number {
    if (this.recorders === 31) throw new RangeError('a trie walk is shared by at most 31 recorders');
    return 1 << this.recorders++;
  }

  walk(hash: CryptoHash): Walked {
    const node = this.trie.node(hash);
    return { node, hash, length: encodedNodeLength(node), kids: null, recordedBy: 0, valueRecordedBy: 0 };
  }
}

export class TrieRecorder {
  /** Bytes of the distinct nodes and values recorded (nearcore's recorded_storage_size). */
  size = 0;
  /** Removals of contract data, each adding to the upper bound what it may cost the proof. */
  removals = 0;
  /** Nodes and values by hash: a subtree or value met again elsewhere in the trie counts once. */
  private readonly seen = new HashSet32();
  private readonly walked: TrieWalk;
  private readonly bit: number;

  /**
   * `source`: the state the chunk is applied on, whose lookups this records, or what other recorders
   * of it have walked.
   */
  constructor(source: Trie | TrieWalk) {
    this.walked = source instanceof TrieWalk ? source : new TrieWalk(source);
    this.bit = this.walked.claim();
  }

  /** nearcore's recorded_storage_size_upper_bound, what the limits read. */
  get upperBound(): number {
    return this.size + this.removals * REMOVAL_UPPER_BOUND_BYTES;
  }

  /**
   * A lookup of `key`: every node on its path, root first and the last one visited included when
   * the key is absent; with `deref`, the value too when the key is present (a lookup that only asks
   * whether the key exists does not read it). Returns what it touched, as Trie.touchedNodes counts
   * it for gas: a lookup through nodes already walked costs a slot index a level.
   */
  recordLookup(key: Uint8Array, deref: boolean, accounting?: TrieAccounting): TouchedNodes {
    const w = this.walked;
    if (isEmptyRoot(w.trie.root)) return NOTHING;
    let e = w.root ?? w.walk(w.trie.root);
    w.root = e;
    const end = key.length * 2;
    let pos = 0;
    let cached = 0;
    for (let nodes = 1; ; nodes++) {
      if ((e.recordedBy & this.bit) === 0) {
        e.recordedBy |= this.bit;
        this.add(e.hash, e.length);
      }
      if (accounting?.cached(e.hash)) cached++;
      const node = e.node;
      if (node.kind === 'leaf') {
        const found = node.key.length === end - pos && matchesAt(node.key, key, pos);
        if (found) this.value(e, node.value, deref);
        return { nodes, found, cached, valueHash: found ? node.value.hash : null };
      }
      if (node.kind === 'extension') {
        if (node.key.length > end - pos || !matchesAt(node.key, key, pos))
          return { nodes, found: false, cached, valueHash: null };
        pos += node.key.length;
        if (e.kids === null) e.kids = [w.walk(node.child)];
        e = e.kids[0]!;
        continue;
      }
      if (pos === end) {
        if (node.value) this.value(e, node.value, deref);
        return { nodes, found: node.value !== null, cached, valueHash: node.value?.hash ?? null };
      }
      const slot = nibbleAt(key, pos);
      if (e.kids === null) e.kids = new Array<Walked | undefined>(16);
      const kids = e.kids;
      let next = kids[slot];
      if (next === undefined) {
        const child = node.children.get(slot);
        if (!child) return { nodes, found: false, cached, valueHash: null };
        next = kids[slot] = w.walk(child);
      }
      pos++;
      e = next;
    }
  }

  /** A contract's removal of a key (TrieKey::ContractData): its cost to the proof is not known yet. */
  recordRemoval(): void {
    this.removals++;
  }

  private value(e: Walked, value: ValueRef, deref: boolean): void {
    if (!deref || (e.valueRecordedBy & this.bit) !== 0) return;
    e.valueRecordedBy |= this.bit;
    this.add(value.hash, value.length);
  }

  private add(hash: CryptoHash, length: number): void {
    if (this.seen.add(hash)) this.size += length;
  }
}

const NOTHING: TouchedNodes = { nodes: 0, found: false, cached: 0, valueHash: null };

function nibbleAt(key: Uint8Array, pos: number): number {
  const b = key[pos >> 1]!;
  return pos & 1 ? b & 0x0f : b >> 4;
}

/** Whether `nibbles` stand in `key` from nibble `pos` (as far as the key goes). */
function matchesAt(nibbles: Uint8Array, key: Uint8Array, pos: number): boolean {
  const n = Math.min(nibbles.length, key.length * 2 - pos);
  for (let i = 0; i < n; i++) if (nibbles[i] !== nibbleAt(key, pos + i)) return false;
  return true;
}
