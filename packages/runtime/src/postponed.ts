// Receipts waiting for promise results: an action receipt with input data ids runs only when every
// data receipt has arrived (nearcore's postponed receipts, received data and pending data counts).
import {
  BorshReader,
  BorshWriter,
  decodeReceipt,
  decodeReceivedData,
  encodeReceipt,
  encodeReceivedData,
  type Receipt,
} from '@nearlite/primitives';
import {
  type TrieUpdate,
  trieKeyPendingDataCount,
  trieKeyPostponedReceipt,
  trieKeyPostponedReceiptId,
  trieKeyReceivedData,
} from '@nearlite/trie';
import type { PromiseResult } from '@nearlite/vm';
import { getPromiseYieldStatus, PromiseYieldStatus, takePromiseYieldReceipt } from './promise_yield.js';

/** Collects (and removes) the promise results of a ready receipt. */
function takeResults(state: TrieUpdate, receipt: Receipt): PromiseResult[] {
  if (receipt.receipt.kind !== 'Action') return [];
  return receipt.receipt.inputDataIds.map((id) => {
    const key = trieKeyReceivedData(receipt.receiverId, id);
    const raw = state.get(key);
    state.remove(key);
    const data = raw ? decodeReceivedData(raw) : null;
    return data === null ? { kind: 'Failed' } : { kind: 'Successful', data };
  });
}

/** Runs now (returns it with its results) or parks the receipt until its data arrives. */
export function postponeIfWaiting(
  state: TrieUpdate,
  receipt: Receipt,
): { receipt: Receipt; results: PromiseResult[] } | null {
  if (receipt.receipt.kind !== 'Action') return null;
  const missing = receipt.receipt.inputDataIds.filter(
    (id) => !state.has(trieKeyReceivedData(receipt.receiverId, id)),
  );
  if (missing.length === 0) return { receipt, results: takeResults(state, receipt) };
  state.set(trieKeyPostponedReceipt(receipt.receiverId, receipt.receiptId), encodeReceipt(receipt));
  for (const id of missing) state.set(trieKeyPostponedReceiptId(receipt.receiverId, id), receipt.receiptId);
  state.set(
    trieKeyPendingDataCount(receipt.receiverId, receipt.receiptId),
    new BorshWriter(4).u32(missing.length).toBytes(),
  );
  state.commit({ type: 'postponed_receipt', receiptHash: receipt.receiptId });
  return null;
}

/** Stores a promise result; returns the receipt that was waiting for it once nothing else is missing. */
export function applyDataReceipt(
  state: TrieUpdate,
  receipt: Receipt,
): { receipt: Receipt; results: PromiseResult[] } | null {
  if (receipt.receipt.kind !== 'Data') return null;
  const { dataId, data } = receipt.receipt;
  state.set(trieKeyReceivedData(receipt.receiverId, dataId), encodeReceivedData(data));
  const idKey = trieKeyPostponedReceiptId(receipt.receiverId, dataId);
  const waiting = state.get(idKey);
  let ready: { receipt: Receipt; results: PromiseResult[] } | null = null;
  if (waiting) {
    state.remove(idKey);
    const countKey = trieKeyPendingDataCount(receipt.receiverId, waiting);
    const count = new BorshReader(state.get(countKey)!).u32() - 1;
    if (count > 0) state.set(countKey, new BorshWriter(4).u32(count).toBytes());
    else {
      state.remove(countKey);
      const pKey = trieKeyPostponedReceipt(receipt.receiverId, waiting);
      const parked = decodeReceipt(state.get(pKey)!);
      state.remove(pKey);
      ready = { receipt: parked, results: takeResults(state, parked) };
    }
  }
  // nearcore commits only when nothing runs (with this cause, for data too); otherwise these writes
  // are committed as the started receipt's first step.
  if (!ready) state.commit({ type: 'postponed_receipt', receiptHash: receipt.receiptId });
  return ready;
}

/**
 * A PromiseResume receipt: a resume's payload, or `null` from the timeout. A timeout arriving after
 * a resume was sent is dropped; otherwise the parked yield is released and runs with the payload as
 * its one promise result (Failed for a timeout). A resume that finds nothing parked (a second resume
 * of the same yield) is dropped too.
 */
export function applyPromiseResume(
  state: TrieUpdate,
  receipt: Receipt,
): { receipt: Receipt; results: PromiseResult[] } | null {
  if (receipt.receipt.kind !== 'Data') return null;
  const { dataId, data } = receipt.receipt;
  const accountId = receipt.receiverId;
  if (data === null && getPromiseYieldStatus(state, accountId, dataId) === PromiseYieldStatus.ResumeInitiated)
    return null;
  const parked = takePromiseYieldReceipt(state, accountId, dataId);
  if (!parked) {
    state.commit({ type: 'postponed_receipt', receiptHash: receipt.receiptId });
    return null;
  }
  state.set(trieKeyReceivedData(accountId, dataId), encodeReceivedData(data));
  return { receipt: parked, results: takeResults(state, parked) };
}
