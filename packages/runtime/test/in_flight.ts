// What the money checks count besides balances and burnt fees: the value receipts carry while no
// account holds it. Shared by the conservation tests.
import { decodeReceipt, decodeStoredReceipt } from '@nearlite/primitives';
import { receiptCost } from '@nearlite/runtime';
import { TrieKeyCol } from '@nearlite/trie';
import { config, type TestChain } from './helpers.js';

const receiptValue = (bytes: Uint8Array) => receiptCost(config, decodeReceipt(bytes));

export const hexCol = (col: number) => col.toString(16).padStart(2, '0');

/**
 * Receipts sent and not yet applied: the next chunk's, the delayed queue's, those waiting for data and
 * the yielded callbacks waiting for a resume or their timeout.
 */
export function inFlight(c: TestChain): { value: bigint; postponed: number; yielded: number } {
  let value = 0n;
  let postponed = 0;
  let yielded = 0;
  for (const bytes of c.pending) value += receiptValue(bytes);
  const delayed = hexCol(TrieKeyCol.DelayedReceiptOrIndices);
  const waiting = hexCol(TrieKeyCol.PostponedReceipt);
  const parked = hexCol(TrieKeyCol.PromiseYieldReceipt);
  for (const [k, v] of c.state) {
    // A delayed receipt's key is its column and a u64 index; the column alone holds the indices.
    if (k.startsWith(delayed) && k.length === 18)
      value += receiptCost(config, decodeStoredReceipt(v).receipt);
    if (k.startsWith(waiting)) {
      value += receiptValue(v);
      postponed++;
    }
    if (k.startsWith(parked)) {
      value += receiptValue(v);
      yielded++;
    }
  }
  return { value, postponed, yielded };
}

/** mulberry32: a seeded generator, so a failure reproduces. */
export function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
