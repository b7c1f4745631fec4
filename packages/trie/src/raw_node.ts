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

  /** All sixteen slots. */
  toArray(): (CryptoHash | null)[] {
    const out: (CryptoHash | null)[] = new Array(16).fill(null);
    let at = 0;
    for (let i = 0; i < 16; i++) {
      if ((this.bitmap & (1 << i)) === 0) continue;
      out[i] = this.packed.subarray(at, at + 32);
      at += 32;
    }
    return out;
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

/** A node's own memory usage, without its children's. */
export function ownMemoryUsage(node: RawNode | RawNodeInput): bigint {
  switch (node.kind) {
    case 'leaf':
      return (
        TRIE_COSTS.nodeCost +
        TRIE_COSTS.byteOfKey * BigInt(encodeNibblePath(node.key, true).length) +
        valueCost(node.value.length)
      );
    case 'extension':
      return TRIE_COSTS.nodeCost + TRIE_COSTS.byteOfKey * BigInt(encodeNibblePath(node.key, false).length);
    case 'branch':
      return TRIE_COSTS.nodeCost + (node.value ? valueCost(node.value.length) : 0n);
  }
}

function writeValueRef(w: BorshWriter, v: ValueRef): void {
  w.u32(v.length).fixed(v.hash);
}

function writeChildren(w: BorshWriter, children: readonly (CryptoHash | null)[]): void {
  let bitmap = 0;
  children.forEach((c, i) => {
    if (c) bitmap |= 1 << i;
  });
  w.u16(bitmap);
  for (const c of children) if (c) w.fixed(c);
}

export function encodeRawNode(node: RawNodeInput, memoryUsage: bigint): Uint8Array {
  const w = new BorshWriter(128);
  switch (node.kind) {
    case 'leaf':
      w.u8(0).bytes(encodeNibblePath(node.key, true));
      writeValueRef(w, node.value);
      break;
    case 'extension':
      w.u8(3).bytes(encodeNibblePath(node.key, false)).fixed(node.child);
      break;
    case 'branch':
      if (node.value) {
        w.u8(2);
        writeValueRef(w, node.value);
      } else w.u8(1);
      writeChildren(w, node.children);
      break;
  }
  w.u64(memoryUsage);
  return w.toBytes();
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
