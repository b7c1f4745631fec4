// Writes to the trie: applies a batch of key changes to the trie at `oldRoot` and returns the new
// root with the nodes and values to insert and the old ones the change replaced, each with a
// reference count, exactly as nearcore's TrieChanges. Shapes are normalised on delete so the root
// depends only on the final key set.
import {
  binaryKey,
  bytesOfBinaryKey,
  type CryptoHash,
  compareBytes,
  concatBytes,
  sha256,
} from '@nearlite/primitives';
import { commonPrefixLength, toNibbles } from './nibbles.js';
import {
  type BranchChildren,
  branchChildrenOf,
  branchOwnMemoryUsage,
  encodeBranch,
  encodeRawNode,
  nodeHash,
  ownMemoryUsage,
  type RawNode,
  storedMemoryUsage,
  type ValueRef,
} from './raw_node.js';
import {
  EMPTY_ROOT,
  isEmptyRoot,
  MissingTrieNodeError,
  rememberDecoded,
  Trie,
  type TrieStorage,
} from './trie.js';

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
 * A branch opened from storage keeps the stored slots as they are (`stored`) and records only the
 * slots an edit sets (`changed`): an edit passes through many branches and changes a slot or two of
 * each, and a view of every child of each was most of what the editor allocated. Slots are read
 * through `childAt`/`hasChild` and set through `setChild`, which keeps the sum.
 */
type Branch = {
  kind: 'branch';
  /** The slots of the stored branch this one was opened from; null for a branch made here. */
  readonly stored: BranchChildren | null;
  /** Slots set since (undefined: as stored); null until one is. */
  changed: (Ref | null | undefined)[] | null;
  value: ValueRef | null;
  storedMemory: bigint;
};

type MemNode =
  | { kind: 'leaf'; key: Uint8Array; value: ValueRef }
  | { kind: 'extension'; key: Uint8Array; child: Ref }
  | Branch;

function emptyBranch(): Branch {
  return { kind: 'branch', stored: null, changed: null, value: null, storedMemory: 0n };
}

function childAt(b: Branch, i: number): Ref | null {
  const c = b.changed?.[i];
  if (c !== undefined) return c;
  return b.stored?.get(i) ?? null;
}

function hasChild(b: Branch, i: number): boolean {
  const c = b.changed?.[i];
  if (c !== undefined) return c !== null;
  return b.stored?.has(i) ?? false;
}

class Editor {
  readonly trie: Trie;
  /**
   * Counts of the nodes and values replaced, by `binaryKey` of their hash: the hashes are made from
   * the keys once the edit is done, so none of the views an edit reads them through outlives it.
   */
  readonly deleted = new Map<string, number>();
  readonly inserted = new Map<string, { hash: CryptoHash; bytes: Uint8Array; rc: number }>();

  constructor(readonly storage: TrieStorage) {
    this.trie = new Trie(storage, EMPTY_ROOT);
  }

  private del(hash: CryptoHash): void {
    const k = binaryKey(hash);
    this.deleted.set(k, (this.deleted.get(k) ?? 0) + 1);
  }

  private ins(hash: CryptoHash, bytes: Uint8Array): void {
    const k = binaryKey(hash);
    const cur = this.inserted.get(k);
    if (cur) cur.rc++;
    else this.inserted.set(k, { hash, bytes, rc: 1 });
  }

  /** Opens a stored node for editing: it will be replaced, so it counts as deleted. */
  open(ref: Ref): MemNode {
    return this.claim(ref, this.peek(ref));
  }

  /** Takes a node `peek` gave for `ref` as the one to edit: a stored one counts as deleted. */
  private claim<T extends MemNode>(ref: Ref, peeked: T): T {
    if (isStored(ref)) this.del(ref);
    return peeked;
  }

  /** Reads a node without editing it (for normalisation decisions); a stored one comes as a new MemNode. */
  peek(ref: Ref): MemNode {
    if (!isStored(ref)) return ref;
    const { node: raw, memoryUsage } = this.trie.decoded(ref);
    if (raw.kind === 'extension') return { kind: 'extension', key: raw.key, child: raw.child };
    if (raw.kind === 'branch')
      return {
        kind: 'branch',
        stored: raw.children,
        changed: null,
        value: raw.value,
        storedMemory: memoryUsage - branchOwnMemoryUsage(raw.value),
      };
    return { kind: 'leaf', key: raw.key, value: raw.value };
  }

  /** Puts `ref` in a branch's slot `i` (which held `old`), keeping the sum of its stored children's memory usage. */
  private setChild(branch: Branch, i: number, ref: Ref | null, old: Ref | null = childAt(branch, i)): void {
    if (old && isStored(old)) branch.storedMemory -= this.trie.memoryUsage(old);
    if (ref && isStored(ref)) branch.storedMemory += this.trie.memoryUsage(ref);
    if (!branch.changed) branch.changed = new Array<Ref | null | undefined>(16).fill(undefined);
    branch.changed[i] = ref;
  }

  newValue(value: Uint8Array): ValueRef {
    const hash = sha256(value);
    this.ins(hash, value);
    return { length: value.length, hash };
  }

  dropValue(v: ValueRef): void {
    this.del(v.hash);
  }

  /** Puts the new value under `branch` (which replaces a node sharing `c` nibbles of `key` from `at`). */
  private splitAt(branch: Branch, key: Uint8Array, at: number, c: number, value: Uint8Array): Ref {
    const rest = at + c;
    if (rest === key.length) branch.value = this.newValue(value);
    else
      this.setChild(
        branch,
        key[rest]!,
        { kind: 'leaf', key: key.subarray(rest + 1), value: this.newValue(value) },
        null,
      );
    return c === 0 ? branch : { kind: 'extension', key: key.subarray(at, rest), child: branch };
  }

  /** Sets `value` at the nibbles of `key` from `at` under `ref`. */
  insert(ref: Ref | null, key: Uint8Array, at: number, value: Uint8Array): Ref {
    if (ref === null) return { kind: 'leaf', key: key.subarray(at), value: this.newValue(value) };
    const node = this.open(ref);
    switch (node.kind) {
      case 'leaf': {
        const c = commonPrefixLength(node.key, key, at);
        if (c === node.key.length && c === key.length - at) {
          this.dropValue(node.value);
          return { kind: 'leaf', key: node.key, value: this.newValue(value) };
        }
        const branch = emptyBranch();
        if (c === node.key.length) branch.value = node.value;
        else
          this.setChild(
            branch,
            node.key[c]!,
            { kind: 'leaf', key: node.key.subarray(c + 1), value: node.value },
            null,
          );
        return this.splitAt(branch, key, at, c, value);
      }
      case 'extension': {
        const c = commonPrefixLength(node.key, key, at);
        if (c === node.key.length) {
          return { kind: 'extension', key: node.key, child: this.insert(node.child, key, at + c, value) };
        }
        const branch = emptyBranch();
        this.setChild(
          branch,
          node.key[c]!,
          c + 1 === node.key.length
            ? node.child
            : { kind: 'extension', key: node.key.subarray(c + 1), child: node.child },
          null,
        );
        return this.splitAt(branch, key, at, c, value);
      }
      case 'branch': {
        if (at === key.length) {
          if (node.value) this.dropValue(node.value);
          node.value = this.newValue(value);
          return node;
        }
        const i = key[at]!;
        const old = childAt(node, i);
        this.setChild(node, i, this.insert(old, key, at + 1, value), old);
        return node;
      }
    }
  }

  /** Removes the nibbles of `key` from `at` under `ref`: the new subtree (null when empty), or `undefined` when the key was absent. */
  remove(ref: Ref, key: Uint8Array, at: number): Ref | null | undefined {
    const peeked = this.peek(ref);
    switch (peeked.kind) {
      case 'leaf': {
        if (
          peeked.key.length !== key.length - at ||
          commonPrefixLength(peeked.key, key, at) !== peeked.key.length
        )
          return undefined;
        this.dropValue(this.claim(ref, peeked).value);
        return null;
      }
      case 'extension': {
        const c = commonPrefixLength(peeked.key, key, at);
        if (c !== peeked.key.length) return undefined;
        const child = this.remove(peeked.child, key, at + c);
        if (child === undefined) return undefined;
        const node = this.claim(ref, peeked);
        return child === null ? null : this.joinExtension(node.key, child);
      }
      case 'branch': {
        if (at === key.length) {
          if (!peeked.value) return undefined;
          const node = this.claim(ref, peeked);
          this.dropValue(node.value!);
          node.value = null;
          return this.normaliseBranch(node);
        }
        const i = key[at]!;
        const childRef = childAt(peeked, i);
        if (!childRef) return undefined;
        const child = this.remove(childRef, key, at + 1);
        if (child === undefined) return undefined;
        const node = this.claim(ref, peeked);
        this.setChild(node, i, child, childRef);
        return this.normaliseBranch(node);
      }
    }
  }

  /** An extension over `child`, merged with it when the child is a leaf or an extension. */
  private joinExtension(key: Uint8Array, child: Ref): Ref {
    const c = this.peek(child);
    if (c.kind === 'leaf') {
      const opened = this.claim(child, c);
      return { kind: 'leaf', key: concatBytes(key, opened.key), value: opened.value };
    }
    if (c.kind === 'extension') {
      const opened = this.claim(child, c);
      return { kind: 'extension', key: concatBytes(key, opened.key), child: opened.child };
    }
    return { kind: 'extension', key, child };
  }

  private normaliseBranch(node: Branch): Ref | null {
    let count = 0;
    let only = -1;
    for (let i = 0; i < 16; i++) {
      if (!hasChild(node, i)) continue;
      count++;
      only = i;
    }
    if (count === 0) return node.value ? { kind: 'leaf', key: new Uint8Array(0), value: node.value } : null;
    if (count === 1 && !node.value) return this.joinExtension(Uint8Array.of(only), childAt(node, only)!);
    return node;
  }

  /** Serialises new nodes bottom-up; returns the hash and memory usage. */
  commit(ref: Ref): { hash: CryptoHash; memory: bigint } {
    if (isStored(ref)) return { hash: ref, memory: this.trie.memoryUsage(ref) };
    let bytes: Uint8Array;
    let memory: bigint;
    let node: RawNode;
    switch (ref.kind) {
      case 'leaf': {
        node = { kind: 'leaf', key: ref.key, value: ref.value };
        memory = ownMemoryUsage(node);
        bytes = encodeRawNode(node, memory);
        break;
      }
      case 'extension': {
        const child = this.commit(ref.child);
        node = { kind: 'extension', key: ref.key, child: child.hash };
        memory = ownMemoryUsage(node) + child.memory;
        bytes = encodeRawNode(node, memory);
        break;
      }
      case 'branch': {
        let childMemory = ref.storedMemory;
        // Children made here are committed first: a branch's bytes hold their hashes.
        let hashes: (CryptoHash | null | undefined)[] | null = null;
        const changed = ref.changed;
        if (changed) {
          hashes = new Array<CryptoHash | null | undefined>(16);
          for (let i = 0; i < 16; i++) {
            const c = changed[i];
            if (c === undefined || c === null || isStored(c)) hashes[i] = c;
            else {
              const r = this.commit(c);
              childMemory += r.memory;
              hashes[i] = r.hash;
            }
          }
        }
        memory = branchOwnMemoryUsage(ref.value) + childMemory;
        bytes = encodeBranch(ref.value, ref.stored, hashes, memory);
        node = { kind: 'branch', children: branchChildrenOf(bytes, ref.value !== null), value: ref.value };
        break;
      }
    }
    const hash = nodeHash(bytes);
    this.ins(hash, bytes);
    rememberDecoded(hash, { node, memoryUsage: memory });
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
      const r = ed.remove(root, key, 0);
      if (r !== undefined) root = r;
    } else {
      root = ed.insert(root, key, 0, c.value);
    }
  }
  const newRoot = root === null ? EMPTY_ROOT : ed.commit(root).hash;
  return {
    oldRoot,
    newRoot,
    insertions: [...ed.inserted.values()],
    deletions: Array.from(ed.deleted, ([k, rc]) => ({ hash: bytesOfBinaryKey(k), rc })),
  };
}

/** Memory usage of a root node (trie.md's "memory_usage of the root"). */
export function rootMemoryUsage(storage: TrieStorage, root: CryptoHash): bigint {
  if (isEmptyRoot(root)) return 0n;
  const bytes = storage.get(root);
  if (!bytes) throw new MissingTrieNodeError(root);
  return storedMemoryUsage(bytes);
}
