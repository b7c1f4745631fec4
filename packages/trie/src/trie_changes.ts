// Writes to the trie: applies a batch of key changes to the trie at `oldRoot` and returns the new
// root with the nodes and values to insert and the old ones the change replaced, each with a
// reference count, exactly as nearcore's TrieChanges. Shapes are normalised on delete so the root
// depends only on the final key set.
import { binaryKey, type CryptoHash, compareBytes, concatBytes, sha256 } from '@nearlite/primitives';
import { commonPrefixLength, toNibbles } from './nibbles.js';
import {
  encodeRawNode,
  nodeHash,
  ownMemoryUsage,
  type RawNodeInput,
  storedMemoryUsage,
  type ValueRef,
} from './raw_node.js';
import { EMPTY_ROOT, isEmptyRoot, MissingTrieNodeError, Trie, type TrieStorage } from './trie.js';

export interface TrieChanges {
  readonly oldRoot: CryptoHash;
  readonly newRoot: CryptoHash;
  readonly insertions: readonly {
    readonly hash: CryptoHash;
    readonly bytes: Uint8Array;
    readonly rc: number;
  }[];
  readonly deletions: readonly { readonly hash: CryptoHash; readonly rc: number }[];
}

/**
 * A node being edited: either untouched in storage (its hash), or rebuilt in memory. A stored child is
 * its hash as is: an edit opens a few nodes of each branch it passes, and wrapping every child of
 * those was most of what the editor allocated.
 */
type Ref = CryptoHash | MemNode;

function isStored(ref: Ref): ref is CryptoHash {
  return ref instanceof Uint8Array;
}

/**
 * A branch keeps the memory usage of its stored children as one sum (`storedMemory`), as nearcore's
 * update adjusts a node's memory usage by its changed children: a stored branch's sum is its
 * recorded memory usage less its own, so its untouched children are never read just to be counted.
 * Children are set through `setChild`, which keeps the sum.
 */
type Branch = { kind: 'branch'; children: (Ref | null)[]; value: ValueRef | null; storedMemory: bigint };

type MemNode =
  | { kind: 'leaf'; key: Uint8Array; value: ValueRef }
  | { kind: 'extension'; key: Uint8Array; child: Ref }
  | Branch;

function emptyBranch(): Branch {
  return { kind: 'branch', children: new Array(16).fill(null), value: null, storedMemory: 0n };
}

class Editor {
  readonly trie: Trie;
  readonly deleted = new Map<string, { hash: CryptoHash; rc: number }>();
  readonly inserted = new Map<string, { hash: CryptoHash; bytes: Uint8Array; rc: number }>();

  constructor(readonly storage: TrieStorage) {
    this.trie = new Trie(storage, EMPTY_ROOT);
  }

  private del(hash: CryptoHash): void {
    const k = binaryKey(hash);
    const cur = this.deleted.get(k);
    if (cur) cur.rc++;
    else this.deleted.set(k, { hash, rc: 1 });
  }

  private ins(hash: CryptoHash, bytes: Uint8Array): void {
    const k = binaryKey(hash);
    const cur = this.inserted.get(k);
    if (cur) cur.rc++;
    else this.inserted.set(k, { hash, bytes, rc: 1 });
  }

  /** Opens a stored node for editing: it will be replaced, so it counts as deleted. */
  open(ref: Ref): MemNode {
    if (!isStored(ref)) return ref;
    const node = this.peek(ref);
    this.del(ref);
    return node;
  }

  /** Reads a node without editing it (for normalisation decisions). */
  peek(ref: Ref): MemNode {
    if (!isStored(ref)) return ref;
    const { node: raw, memoryUsage } = this.trie.decoded(ref);
    if (raw.kind === 'extension') return { kind: 'extension', key: raw.key, child: raw.child };
    if (raw.kind === 'branch')
      return {
        kind: 'branch',
        value: raw.value,
        children: raw.children.toArray(),
        storedMemory: memoryUsage - ownMemoryUsage(raw),
      };
    return { kind: 'leaf', key: raw.key, value: raw.value };
  }

  /** Puts `ref` in a branch's slot `i`, keeping the sum of its stored children's memory usage. */
  private setChild(branch: Branch, i: number, ref: Ref | null): void {
    const old = branch.children[i];
    if (old && isStored(old)) branch.storedMemory -= this.trie.memoryUsage(old);
    if (ref && isStored(ref)) branch.storedMemory += this.trie.memoryUsage(ref);
    branch.children[i] = ref;
  }

  newValue(value: Uint8Array): ValueRef {
    const hash = sha256(value);
    this.ins(hash, value);
    return { length: value.length, hash };
  }

  dropValue(v: ValueRef): void {
    this.del(v.hash);
  }

  /** Puts the new value under `branch` (which replaces a node sharing `c` nibbles of `key`). */
  private splitAt(branch: Branch, key: Uint8Array, c: number, value: Uint8Array): Ref {
    const newRest = key.subarray(c);
    if (newRest.length === 0) branch.value = this.newValue(value);
    else
      this.setChild(branch, newRest[0]!, {
        kind: 'leaf',
        key: newRest.subarray(1),
        value: this.newValue(value),
      });
    return c === 0 ? branch : { kind: 'extension', key: key.subarray(0, c), child: branch };
  }

  insert(ref: Ref | null, key: Uint8Array, value: Uint8Array): Ref {
    if (ref === null) return { kind: 'leaf', key, value: this.newValue(value) };
    const node = this.open(ref);
    switch (node.kind) {
      case 'leaf': {
        const c = commonPrefixLength(node.key, key);
        if (c === node.key.length && c === key.length) {
          this.dropValue(node.value);
          return { kind: 'leaf', key, value: this.newValue(value) };
        }
        const branch = emptyBranch();
        const oldRest = node.key.subarray(c);
        if (oldRest.length === 0) branch.value = node.value;
        else
          this.setChild(branch, oldRest[0]!, { kind: 'leaf', key: oldRest.subarray(1), value: node.value });
        return this.splitAt(branch, key, c, value);
      }
      case 'extension': {
        const c = commonPrefixLength(node.key, key);
        if (c === node.key.length) {
          return { kind: 'extension', key: node.key, child: this.insert(node.child, key.subarray(c), value) };
        }
        const branch = emptyBranch();
        const extRest = node.key.subarray(c);
        this.setChild(
          branch,
          extRest[0]!,
          extRest.length === 1
            ? node.child
            : { kind: 'extension', key: extRest.subarray(1), child: node.child },
        );
        return this.splitAt(branch, key, c, value);
      }
      case 'branch': {
        if (key.length === 0) {
          if (node.value) this.dropValue(node.value);
          node.value = this.newValue(value);
          return node;
        }
        const i = key[0]!;
        this.setChild(node, i, this.insert(node.children[i] ?? null, key.subarray(1), value));
        return node;
      }
    }
  }

  /** Returns the new subtree (null when empty), or `undefined` when the key was absent. */
  remove(ref: Ref, key: Uint8Array): Ref | null | undefined {
    const peeked = this.peek(ref);
    switch (peeked.kind) {
      case 'leaf': {
        if (peeked.key.length !== key.length || commonPrefixLength(peeked.key, key) !== key.length)
          return undefined;
        const node = this.open(ref) as Extract<MemNode, { kind: 'leaf' }>;
        this.dropValue(node.value);
        return null;
      }
      case 'extension': {
        const c = commonPrefixLength(peeked.key, key);
        if (c !== peeked.key.length) return undefined;
        const child = this.remove(peeked.child, key.subarray(c));
        if (child === undefined) return undefined;
        const node = this.open(ref) as Extract<MemNode, { kind: 'extension' }>;
        return child === null ? null : this.joinExtension(node.key, child);
      }
      case 'branch': {
        if (key.length === 0) {
          if (!peeked.value) return undefined;
          const node = this.open(ref) as Branch;
          this.dropValue(node.value!);
          node.value = null;
          return this.normaliseBranch(node);
        }
        const childRef = peeked.children[key[0]!];
        if (!childRef) return undefined;
        const child = this.remove(childRef, key.subarray(1));
        if (child === undefined) return undefined;
        const node = this.open(ref) as Branch;
        this.setChild(node, key[0]!, child);
        return this.normaliseBranch(node);
      }
    }
  }

  /** An extension over `child`, merged with it when the child is a leaf or an extension. */
  private joinExtension(key: Uint8Array, child: Ref): Ref {
    const c = this.peek(child);
    if (c.kind === 'leaf') {
      const opened = this.open(child) as Extract<MemNode, { kind: 'leaf' }>;
      return { kind: 'leaf', key: concatBytes(key, opened.key), value: opened.value };
    }
    if (c.kind === 'extension') {
      const opened = this.open(child) as Extract<MemNode, { kind: 'extension' }>;
      return { kind: 'extension', key: concatBytes(key, opened.key), child: opened.child };
    }
    return { kind: 'extension', key, child };
  }

  private normaliseBranch(node: Branch): Ref | null {
    let count = 0;
    let only = -1;
    node.children.forEach((c, i) => {
      if (c) {
        count++;
        only = i;
      }
    });
    if (count === 0) return node.value ? { kind: 'leaf', key: new Uint8Array(0), value: node.value } : null;
    if (count === 1 && !node.value) return this.joinExtension(Uint8Array.of(only), node.children[only]!);
    return node;
  }

  /** Serialises new nodes bottom-up; returns the hash and memory usage. */
  commit(ref: Ref): { hash: CryptoHash; memory: bigint } {
    if (isStored(ref)) return { hash: ref, memory: this.trie.memoryUsage(ref) };
    let raw: RawNodeInput;
    let memory: bigint;
    switch (ref.kind) {
      case 'leaf':
        raw = { kind: 'leaf', key: ref.key, value: ref.value };
        memory = ownMemoryUsage(raw);
        break;
      case 'extension': {
        const child = this.commit(ref.child);
        raw = { kind: 'extension', key: ref.key, child: child.hash };
        memory = ownMemoryUsage(raw) + child.memory;
        break;
      }
      case 'branch': {
        let childMemory = ref.storedMemory;
        const children = ref.children.map((c) => {
          if (!c || isStored(c)) return c;
          const r = this.commit(c);
          childMemory += r.memory;
          return r.hash;
        });
        raw = { kind: 'branch', children, value: ref.value };
        memory = ownMemoryUsage(raw) + childMemory;
        break;
      }
    }
    const bytes = encodeRawNode(raw, memory);
    const hash = nodeHash(bytes);
    this.ins(hash, bytes);
    return { hash, memory };
  }
}

export function applyChanges(
  storage: TrieStorage,
  oldRoot: CryptoHash,
  changes: readonly { readonly key: Uint8Array; readonly value: Uint8Array | null }[],
): TrieChanges {
  const ed = new Editor(storage);
  let root: Ref | null = isEmptyRoot(oldRoot) ? null : oldRoot;
  const sorted = [...changes].sort((a, b) => compareBytes(a.key, b.key));
  for (const c of sorted) {
    const key = toNibbles(c.key);
    if (c.value === null) {
      if (root === null) continue;
      const r = ed.remove(root, key);
      if (r !== undefined) root = r;
    } else {
      root = ed.insert(root, key, c.value);
    }
  }
  const newRoot = root === null ? EMPTY_ROOT : ed.commit(root).hash;
  return {
    oldRoot,
    newRoot,
    insertions: [...ed.inserted.values()],
    deletions: [...ed.deleted.values()],
  };
}

/** Memory usage of a root node (trie.md's "memory_usage of the root"). */
export function rootMemoryUsage(storage: TrieStorage, root: CryptoHash): bigint {
  if (isEmptyRoot(root)) return 0n;
  const bytes = storage.get(root);
  if (!bytes) throw new MissingTrieNodeError(root);
  return storedMemoryUsage(bytes);
}
