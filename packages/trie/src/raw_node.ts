// nearcore's raw trie node bytes (core/store/src/trie/raw_node.rs): a borsh enum of the node body
// followed by the node's memory_usage as u64 LE. Values are never inline: a node holds the value's
// length and sha256. memory_usage feeds every hash, so it follows nearcore's constants exactly.
import { BorshError, BorshReader, BorshWriter, type CryptoHash, sha256 } from '@nearlite/primitives';
import { decodeNibblePath, encodeNibblePath } from './nibbles.js';

export const TRIE_COSTS = { byteOfKey: 2n, byteOfValue: 1n, nodeCost: 50n } as const;

export interface ValueRef {
  readonly length: number;
  readonly hash: CryptoHash;
}

function popcount16(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
}

/**
 * A decoded branch's children as they are stored: the bitmap of present slots and their hashes
 * packed in slot order (a view of the node's bytes). Decoded nodes are cached by every thread that
 * reads the trie; sixteen hash views and a slot array per branch made a cached node ~1.3 kB of heap,
 * this ~0.2 kB.
 */
export class BranchChildren {
  constructor(
    readonly bitmap: number,
    private readonly packed: Uint8Array,
  ) {}

  /** The child in slot `i` (0–15), or null. */
  get(i: number): CryptoHash | null {
    const bit = 1 << i;
    if ((this.bitmap & bit) === 0) return null;
    const at = 32 * popcount16(this.bitmap & (bit - 1));
    return this.packed.subarray(at, at + 32);
  }

  /** Whether slot `i` holds a child. */
  has(i: number): boolean {
    return (this.bitmap & (1 << i)) !== 0;
  }

  /** Writes the child in slot `i` (which must hold one), without a view of it. */
  writeChild(w: BorshWriter, i: number): void {
    w.fixedFrom(this.packed, 32 * popcount16(this.bitmap & ((1 << i) - 1)), 32);
  }
}

export type RawNode =
  | { readonly kind: 'leaf'; readonly key: Uint8Array; readonly value: ValueRef }
  | { readonly kind: 'extension'; readonly key: Uint8Array; readonly child: CryptoHash }
  | { readonly kind: 'branch'; readonly children: BranchChildren; readonly value: ValueRef | null };

/** A node to encode: a branch's children as sixteen slots. */
export type RawNodeInput =
  | Exclude<RawNode, { kind: 'branch' }>
  | {
      readonly kind: 'branch';
      readonly children: readonly (CryptoHash | null)[];
      readonly value: ValueRef | null;
    };

export interface RawNodeWithSize {
  readonly node: RawNode;
  readonly memoryUsage: bigint;
}

export function valueCost(length: number): bigint {
  return BigInt(length) * TRIE_COSTS.byteOfValue + TRIE_COSTS.nodeCost;
}

/** The length of a nibble path's encoding (`encodeNibblePath`), without encoding it. */
function pathBytes(nibbles: Uint8Array): bigint {
  return BigInt(1 + (nibbles.length >> 1));
}

/** A branch's own memory usage, without its children's. */
export function branchOwnMemoryUsage(value: ValueRef | null): bigint {
  return TRIE_COSTS.nodeCost + (value ? valueCost(value.length) : 0n);
}

/** A node's own memory usage, without its children's. */
export function ownMemoryUsage(node: RawNode | RawNodeInput): bigint {
  switch (node.kind) {
    case 'leaf':
      return TRIE_COSTS.nodeCost + TRIE_COSTS.byteOfKey * pathBytes(node.key) + valueCost(node.value.length);
    case 'extension':
      return TRIE_COSTS.nodeCost + TRIE_COSTS.byteOfKey * pathBytes(node.key);
    case 'branch':
      return branchOwnMemoryUsage(node.value);
  }
}

/** The length of a node's bytes (what `encodeRawNode` writes), from its decoded form. */
export function encodedNodeLength(node: RawNode): number {
  switch (node.kind) {
    // tag, the key's u32 length and nibble path, the value's u32 length and hash; then memory usage
    case 'leaf':
      return 1 + 4 + 1 + (node.key.length >> 1) + 36 + 8;
    case 'extension':
      return 1 + 4 + 1 + (node.key.length >> 1) + 32 + 8;
    case 'branch':
      return 1 + (node.value ? 36 : 0) + 2 + 32 * popcount16(node.children.bitmap) + 8;
  }
}

function writeValueRef(w: BorshWriter, v: ValueRef): void {
  w.u32(v.length).fixed(v.hash);
}

/**
 * A branch's bytes: its slots are `stored`'s (a stored branch it replaces; null: none) except where
 * `changed` has an entry (a hash, or null for an empty slot; undefined: as stored). An edit changes a
 * slot or two of a branch: the others are copied from the stored bytes without a view of each.
 */
export function encodeBranch(
  value: ValueRef | null,
  stored: BranchChildren | null,
  changed: readonly (CryptoHash | null | undefined)[] | null,
  memoryUsage: bigint,
): Uint8Array {
  let bitmap = 0;
  let count = 0;
  for (let i = 0; i < 16; i++) {
    const c = changed?.[i];
    if (c === undefined ? stored?.has(i) : c !== null) {
      bitmap |= 1 << i;
      count++;
    }
  }
  const w = new BorshWriter(1 + (value ? 36 : 0) + 2 + 32 * count + 8);
  if (value) {
    w.u8(2);
    writeValueRef(w, value);
  } else w.u8(1);
  w.u16(bitmap);
  for (let i = 0; i < 16; i++) {
    if ((bitmap & (1 << i)) === 0) continue;
    const c = changed?.[i];
    if (c) w.fixed(c);
    else stored!.writeChild(w, i);
  }
  w.u64(memoryUsage);
  return w.toBytes();
}

/** The children of an encoded branch (`bytes` as `encodeBranch` made them), viewed in place. */
export function branchChildrenOf(bytes: Uint8Array, hasValue: boolean): BranchChildren {
  const at = hasValue ? 37 : 1;
  const bitmap = bytes[at]! | (bytes[at + 1]! << 8);
  return new BranchChildren(bitmap, bytes.subarray(at + 2, at + 2 + 32 * popcount16(bitmap)));
}

/**
 * A node's bytes. A leaf's or an extension's are a view of a writer's slab (`BorshWriter.written`):
 * an edit's new nodes are written to the store, which copies them, and kept decoded, not as bytes.
 * A branch's are its own: its decoded children view them, and decoded nodes are cached.
 */
export function encodeRawNode(node: RawNodeInput, memoryUsage: bigint): Uint8Array {
  if (node.kind === 'branch') return encodeBranch(node.value, null, node.children, memoryUsage);
  const w = new BorshWriter(128);
  switch (node.kind) {
    case 'leaf':
      w.u8(0).bytes(encodeNibblePath(node.key, true));
      writeValueRef(w, node.value);
      break;
    case 'extension':
      w.u8(3).bytes(encodeNibblePath(node.key, false)).fixed(node.child);
      break;
  }
  w.u64(memoryUsage);
  return w.written();
}

function readChildren(r: BorshReader): BranchChildren {
  const bitmap = r.u16();
  return new BranchChildren(bitmap, r.fixed(32 * popcount16(bitmap)));
}

export function decodeRawNode(bytes: Uint8Array): RawNodeWithSize {
  const r = new BorshReader(bytes);
  const tag = r.u8();
  let node: RawNode;
  switch (tag) {
    case 0: {
      const key = decodeNibblePath(r.bytes()).nibbles;
      node = { kind: 'leaf', key, value: { length: r.u32(), hash: r.fixed(32) } };
      break;
    }
    case 1:
      node = { kind: 'branch', children: readChildren(r), value: null };
      break;
    case 2: {
      const value = { length: r.u32(), hash: r.fixed(32) };
      node = { kind: 'branch', value, children: readChildren(r) };
      break;
    }
    case 3:
      node = { kind: 'extension', key: decodeNibblePath(r.bytes()).nibbles, child: r.fixed(32) };
      break;
    default:
      throw new BorshError(`unknown trie node tag ${tag}`);
  }
  const memoryUsage = r.u64();
  r.end();
  return { node, memoryUsage };
}

export function nodeHash(bytes: Uint8Array): CryptoHash {
  return sha256(bytes);
}

/** The memory_usage stored in a node's last 8 bytes, without decoding the rest. */
export function storedMemoryUsage(bytes: Uint8Array): bigint {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(bytes.length - 8, true);
}
