// Timing yields out (nearcore's resolve_promise_yield_timeouts), after the chunk's receipts: while
// the chunk has gas left, every queue entry whose expires_at has come is popped; if its yield is
// still parked, a PromiseResume receipt with no data goes out to the account, to be applied in the
// next chunk. A resume sent earlier in this chunk travels ahead of it on the same route, so the
// timeout then finds the yield gone (or its status ResumeInitiated) and is dropped.
import { type Receipt, receiptIdFromReceipt } from '@nearlite/primitives';
import type { TrieUpdate } from '@nearlite/trie';
import type { ApplyContext } from './apply.js';
import { hasPromiseYieldReceipt, PromiseYieldTimeoutQueue } from './promise_yield.js';

export function resolvePromiseYieldTimeouts(
  ctx: ApplyContext,
  state: TrieUpdate,
  full: () => boolean,
): Receipt[] {
  const queue = new PromiseYieldTimeoutQueue(state);
  const resumes: Receipt[] = [];
  for (let entry = queue.peek(); entry !== null && !full(); entry = queue.peek()) {
    if (entry.expiresAt > BigInt(ctx.blockHeight)) break;
    if (hasPromiseYieldReceipt(state, entry.accountId, entry.dataId)) {
      resumes.push({
        predecessorId: entry.accountId,
        receiverId: entry.accountId,
        receiptId: receiptIdFromReceipt(entry.dataId, ctx.blockHeight, resumes.length),
        receipt: { kind: 'Data', dataId: entry.dataId, data: null, isPromiseResume: true },
      });
    }
    queue.pop();
  }
  if (queue.flush()) state.commit({ type: 'updated_delayed_receipts' });
  return resumes;
}
