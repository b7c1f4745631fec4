// The indices of a queue kept in the trie, nearcore's borsh { first_index: u64,
// next_available_index: u64 } (DelayedReceiptIndices, PromiseYieldIndices); absent means empty.
import { BorshReader, BorshWriter } from '@nearlite/primitives';

export interface QueueIndices {
  first: bigint;
  next: bigint;
}

export function readQueueIndices(raw: Uint8Array | null | undefined): QueueIndices {
  if (!raw) return { first: 0n, next: 0n };
  const r = new BorshReader(raw);
  const out = { first: r.u64(), next: r.u64() };
  r.end();
  return out;
}

export function encodeQueueIndices(first: bigint, next: bigint): Uint8Array {
  return new BorshWriter(16).u64(first).u64(next).toBytes();
}
