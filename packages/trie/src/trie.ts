// Read side of the state trie, synchronous (the VM's storage reads cannot await).
import { type CryptoHash, concatBytes, toHex, ZERO_HASH } from '@nearlite/primitives';
import { commonPrefixLength, fromNibbles, toNibbles } from './nibbles.js';
import { NodeCache } from './node_cache.js';
import { decodeRawNode, type RawNode, type RawNodeWithSize, type ValueRef } from './raw_node.js';
import type { TrieAccounting } from './trie_accounting.js';

/**
 * The nodes a lookup touched (its path), whether it found the key, with its value's hash, and how
 * many of the path's nodes an accounting had met before (the value is the caller's to account: a
 * contract's write dereferences it only once the old value's bytes are paid for).
 */
export interface TouchedNodes {
  readonly nodes: number;
  readonly found: boolean;
  readonly cached: number;
  readonly valueHash: CryptoHash | null;
}

/** Where trie nodes and values live, by hash (nearcore's State column holds both). */
export interface TrieStorage {
  get(hash: CryptoHash): Uint8Array | undefined;
}

export const EMPTY_ROOT: CryptoHash = ZERO_HASH;

export class MissingTrieNodeError extends Error {
  override readonly name = 'MissingTrieNodeError';
  constructor(readonly hash: CryptoHash) {
    super(`trie node ${toHex(hash)} is missing from storage`);
  }
}

export function isEmptyRoot(root: CryptoHash): boolean {
  return root.every((b) => b === 0);
}

export class MemoryTrieStorage implements TrieStorage {
  readonly map = new Map<string, Uint8Array>();

  get(hash: CryptoHash): Uint8Array | undefined {
    return this.map.get(toHex(hash));
  }

  put(hash: CryptoHash, bytes: Uint8Array): void {
    this.map.set(toHex(hash), bytes);
  }
}

/** Decoded nodes shared by all tries of a thread: nodes are immutable by hash. */
const nodeCache = new NodeCache<RawNodeWithSize>(50_000);

/**
 * Caches the decoded form of a node just encoded: the next block's edits start from the nodes this
 * one wrote (the upper levels every time), and decoding them back from their bytes was most of what
 * those edits read.
 */
export function rememberDecoded(hash: CryptoHash, node: RawNodeWithSize): void {
  nodeCache.set(hash, node);
}

export class Trie {
  constructor(
    readonly storage: TrieStorage,
    readonly root: CryptoHash,
  ) {}

  rawNode(hash: CryptoHash): Uint8Array {
    const bytes = this.storage.get(hash);
    if (!bytes) throw new MissingTrieNodeError(hash);
    return bytes;
  }

  node(hash: CryptoHash): RawNode {
    return this.decoded(hash).node;
  }

  /** The memory_usage a node records for its subtree. */
  memoryUsage(hash: CryptoHash): bigint {
    return this.decoded(hash).memoryUsage;
  }

  /** A node and the memory_usage it records, from one cache lookup. */
  decoded(hash: CryptoHash): RawNodeWithSize {
    const hit = nodeCache.get(hash);
    if (hit) return hit;
    const decoded = decodeRawNode(this.rawNode(hash));
    nodeCache.set(hash, decoded);
    return decoded;
  }

  private value(hash: CryptoHash): Uint8Array {
    const v = this.storage.get(hash);
    if (!v) throw new MissingTrieNodeError(hash);
    return v;
  }

  get(key: Uint8Array): Uint8Array | undefined {
    if (isEmptyRoot(this.root)) return undefined;
    const nibbles = toNibbles(key);
    let pos = 0;
    let hash = this.root;
    for (;;) {
      const node = this.node(hash);
      if (node.kind === 'leaf') {
        if (node.key.length !== nibbles.length - pos) return undefined;
        for (let i = 0; i < node.key.length; i++) if (node.key[i] !== nibbles[pos + i]) return undefined;
        return this.value(node.value.hash);
      }
      if (node.kind === 'extension') {
        if (node.key.length > nibbles.length - pos) return undefined;
        for (let i = 0; i < node.key.length; i++) if (node.key[i] !== nibbles[pos + i]) return undefined;
        pos += node.key.length;
        hash = node.child;
        continue;
      }
      if (pos === nibbles.length) return node.value ? this.value(node.value.hash) : undefined;
      const child = node.children.get(nibbles[pos]!);
      if (!child) return undefined;
      pos++;
      hash = child;
    }
  }

  has(key: Uint8Array): boolean {
    return this.get(key) !== undefined;
  }

  /**
   * What a lookup of `key` touches, as nearcore's lookup_from_state_column counts it for gas: every
   * node on the path (root first, the last one included when the key is absent), plus the value
   * when the key is present. With `accounting`, `cached` counts the path's nodes it met before.
   */
  touchedNodes(key: Uint8Array, accounting?: TrieAccounting): TouchedNodes {
    if (isEmptyRoot(this.root)) return { nodes: 0, found: false, cached: 0, valueHash: null };
    const nibbles = toNibbles(key);
    let pos = 0;
    let hash = this.root;
    let nodes = 0;
    let cached = 0;
    // The lookup ends at the key's value, or (null) where the key is absent.
    const value = (v: ValueRef | null): TouchedNodes => ({
      nodes,
      found: v !== null,
      cached,
      valueHash: v?.hash ?? null,
    });
    for (;;) {
      const node = this.node(hash);
      nodes++;
      if (accounting?.cached(hash)) cached++;
      if (node.kind === 'leaf') {
        if (node.key.length !== nibbles.length - pos) return value(null);
        for (let i = 0; i < node.key.length; i++) if (node.key[i] !== nibbles[pos + i]) return value(null);
        return value(node.value);
      }
      if (node.kind === 'extension') {
        if (node.key.length > nibbles.length - pos) return value(null);
        for (let i = 0; i < node.key.length; i++) if (node.key[i] !== nibbles[pos + i]) return value(null);
        pos += node.key.length;
        hash = node.child;
        continue;
      }
      if (pos === nibbles.length) return value(node.value);
      const child = node.children.get(nibbles[pos]!);
      if (!child) return value(null);
      pos++;
      hash = child;
    }
  }

  /**
   * Entries whose key starts with `prefix`, ascending; with `after`, only those whose key is greater.
   * Subtrees wholly at or below `after` are not read: a page of a large state costs the page, not
   * every key before it.
   */
  iterPrefix(prefix: Uint8Array, after?: Uint8Array): Generator<[Uint8Array, Uint8Array]> {
    return this.scan(prefix, null, after ? toNibbles(after) : null);
  }

  /**
   * Entries under `prefix` and the raw bytes of every node visited to find them (nearcore's
   * view_state `include_proof`).
   */
  iterPrefixWithProof(prefix: Uint8Array): { entries: [Uint8Array, Uint8Array][]; proof: Uint8Array[] } {
    const proof: Uint8Array[] = [];
    const entries = [...this.scan(prefix, proof)];
    return { entries, proof };
  }

  private visit(hash: CryptoHash, proof: Uint8Array[] | null): RawNode {
    if (proof) proof.push(this.rawNode(hash));
    return this.node(hash);
  }

  /**
   * Finds the subtree covering `prefix` (the nodes on the way are read now) and walks it as the
   * entries are asked for: the entries come from one generator, not one per call level.
   */
  private scan(
    prefix: Uint8Array,
    proof: Uint8Array[] | null,
    after: Uint8Array | null = null,
  ): Generator<[Uint8Array, Uint8Array]> {
    if (isEmptyRoot(this.root)) return nothing();
    const want = toNibbles(prefix);
    let path: Uint8Array = new Uint8Array(0);
    let hash = this.root;
    for (;;) {
      const node = this.visit(hash, proof);
      const rest = want.subarray(path.length);
      if (rest.length === 0) return this.walk(node, path, proof, after);
      if (node.kind === 'leaf' || node.kind === 'extension') {
        const c = commonPrefixLength(node.key, rest);
        if (c < Math.min(node.key.length, rest.length)) return nothing();
        // The node's key extends past the prefix: all of it matches.
        if (c === rest.length) return this.walk(node, path, proof, after);
        if (node.kind === 'leaf') return nothing();
        path = concatBytes(path, node.key);
        hash = node.child;
        continue;
      }
      const child = node.children.get(rest[0]!);
      if (!child) return nothing();
      path = concatBytes(path, rest.subarray(0, 1));
      hash = child;
    }
  }

  /**
   * Every entry of the subtree under `start` (at nibble path `path`), in key order. Depth first with
   * a stack of its own and one shared path: a generator delegating to one per level passed each
   * entry up through every level above it. A node is visited (and put in the proof) when it is
   * reached, as a walk down each child in turn reaches it, so the proof keeps that order.
   *
   * With `after` (nibbles), a step is compared with it before its node is read: a path below it is
   * skipped, a path above it (or extending it) is `free` and everything under it is yielded without
   * more comparisons, and a path that is a prefix of it is walked on, its own value (a key at or
   * below `after`) left out.
   */
  private *walk(
    start: RawNode,
    path: Uint8Array,
    proof: Uint8Array[] | null,
    after: Uint8Array | null = null,
  ): Generator<[Uint8Array, Uint8Array]> {
    let nibbles = new Uint8Array(Math.max(64, path.length * 2));
    nibbles.set(path);
    /** Puts `more` at `at` in the shared path, growing it as needed; returns the path's new length. */
    const put = (at: number, more: Uint8Array): number => {
      if (at + more.length > nibbles.length) {
        const grown = new Uint8Array(Math.max(nibbles.length * 2, at + more.length));
        grown.set(nibbles.subarray(0, at));
        nibbles = grown;
      }
      nibbles.set(more, at);
      return at + more.length;
    };
    // Each entry: the node (or its hash, to visit), the path length it continues from, and the
    // nibbles it adds there (a branch slot, or an extension's key).
    const stack: WalkStep[] = [{ node: start, hash: null, depth: 0, add: null, free: after === null }];
    for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
      const len = step.add ? put(step.depth, step.add) : path.length;
      let free = step.free;
      if (!free) {
        const r = relation(nibbles, step.depth, len, after!);
        if (r < 0) continue;
        free = r > 0;
      }
      const node = step.node ?? this.visit(step.hash!, proof);
      switch (node.kind) {
        case 'leaf': {
          // `put` may grow the path: it runs before the path is read.
          const end = put(len, node.key);
          if (free || relation(nibbles, len, end, after!) > 0)
            yield [fromNibbles(nibbles, end), this.value(node.value.hash)];
          break;
        }
        case 'extension':
          stack.push({ node: null, hash: node.child, depth: len, add: node.key, free });
          break;
        case 'branch':
          if (node.value && free) yield [fromNibbles(nibbles, len), this.value(node.value.hash)];
          for (let i = 15; i >= 0; i--) {
            const c = node.children.get(i);
            if (c) stack.push({ node: null, hash: c, depth: len, add: SLOTS[i]!, free });
          }
      }
    }
  }
}

function* nothing(): Generator<[Uint8Array, Uint8Array]> {}

/**
 * How the path `nibbles[0, to)` stands to `after`, given that `nibbles[0, from)` is a prefix of it:
 * -1 when every key under the path is at or below `after`, 1 when every one is above it, 0 when the
 * path is itself a prefix of `after` (or equal to it).
 */
function relation(nibbles: Uint8Array, from: number, to: number, after: Uint8Array): -1 | 0 | 1 {
  const n = Math.min(to, after.length);
  for (let i = from; i < n; i++) {
    const a = nibbles[i]!;
    const b = after[i]!;
    if (a !== b) return a < b ? -1 : 1;
  }
  return to > after.length ? 1 : 0;
}

interface WalkStep {
  readonly node: RawNode | null;
  readonly hash: CryptoHash | null;
  /** Where `add` goes in the shared path; the first step's path is the scan's, compared from 0. */
  readonly depth: number;
  readonly add: Uint8Array | null;
  /** Every key under this step is above the scan's `after` (or there is none). */
  readonly free: boolean;
}

/** A branch slot's one nibble, made once. */
const SLOTS = Array.from({ length: 16 }, (_, i) => Uint8Array.of(i));
