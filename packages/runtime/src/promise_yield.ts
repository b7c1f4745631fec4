// NEP-519 state as nearcore keeps it (core/store/src/utils): a yielded callback is parked under
// PromiseYieldReceipt{account, data_id} until a PromiseResume receipt delivers its one input; its
// PromiseYieldStatus says whether a resume was already sent; a yield created with a caller-chosen id
// has the YieldIdToDataId / DataIdToYieldId pair; and every yield has an entry in the shard's FIFO
// timeout queue (PromiseYieldIndices {first_index, next_available_index: u64} and
// PromiseYieldTimeout{index} = borsh {account_id, data_id, expires_at: u64}). Entries are appended
// in block order with the same timeout length, so the queue is ordered by expires_at.
import {
  BorshReader,
  BorshWriter,
  type CryptoHash,
  decodeReceipt,
  encodeReceipt,
  type Receipt,
} from '@nearlite/primitives';
import {
  type TrieUpdate,
  trieKeyDataIdToYieldId,
  trieKeyPromiseYieldIndices,
  trieKeyPromiseYieldReceipt,
  trieKeyPromiseYieldStatus,
  trieKeyPromiseYieldTimeout,
  trieKeyYieldIdToDataId,
} from '@nearlite/trie';
import { encodeQueueIndices, readQueueIndices } from './queue_indices.js';

/** nearcore's PromiseYieldStatus (borsh enum). */
export const PromiseYieldStatus = { Yielded: 0, ResumeInitiated: 1 } as const;
export type PromiseYieldStatus = (typeof PromiseYieldStatus)[keyof typeof PromiseYieldStatus];

export function getPromiseYieldStatus(
  state: TrieUpdate,
  accountId: string,
  dataId: CryptoHash,
): PromiseYieldStatus | null {
  const raw = state.get(trieKeyPromiseYieldStatus(accountId, dataId));
  if (!raw) return null;
  const r = new BorshReader(raw);
  const v = r.u8();
  r.end();
  if (v !== PromiseYieldStatus.Yielded && v !== PromiseYieldStatus.ResumeInitiated)
    throw new Error(`unknown PromiseYieldStatus ${v}`);
  return v;
}

export function setPromiseYieldStatus(
  state: TrieUpdate,
  accountId: string,
  dataId: CryptoHash,
  status: PromiseYieldStatus,
): void {
  state.set(trieKeyPromiseYieldStatus(accountId, dataId), Uint8Array.of(status));
}

export function hasPromiseYieldStatus(state: TrieUpdate, accountId: string, dataId: CryptoHash): boolean {
  return state.has(trieKeyPromiseYieldStatus(accountId, dataId));
}

export function setYieldIdMapping(
  state: TrieUpdate,
  accountId: string,
  yieldId: Uint8Array,
  dataId: CryptoHash,
): void {
  state.set(trieKeyYieldIdToDataId(accountId, yieldId), dataId.slice());
  state.set(trieKeyDataIdToYieldId(accountId, dataId), yieldId.slice());
}

export function getDataIdForYieldId(
  state: TrieUpdate,
  accountId: string,
  yieldId: Uint8Array,
): CryptoHash | null {
  return state.get(trieKeyYieldIdToDataId(accountId, yieldId))?.slice() ?? null;
}

export function hasYieldIdMapping(state: TrieUpdate, accountId: string, yieldId: Uint8Array): boolean {
  return state.has(trieKeyYieldIdToDataId(accountId, yieldId));
}

/** Parks a PromiseYield receipt until its resume (or timeout) arrives. */
export function setPromiseYieldReceipt(state: TrieUpdate, receipt: Receipt): void {
  const r = receipt.receipt;
  if (r.kind !== 'Action' || !r.isPromiseYield || r.inputDataIds.length !== 1)
    throw new TypeError('expected a PromiseYield receipt with one input');
  state.set(trieKeyPromiseYieldReceipt(receipt.receiverId, r.inputDataIds[0]!), encodeReceipt(receipt));
}

export function hasPromiseYieldReceipt(state: TrieUpdate, accountId: string, dataId: CryptoHash): boolean {
  return state.has(trieKeyPromiseYieldReceipt(accountId, dataId));
}

/**
 * What a PromiseResume receipt releases: the parked receipt, with its status and yield-id mapping
 * cleared (nearcore's process_receipt). Null if nothing is parked under the data id.
 */
export function takePromiseYieldReceipt(
  state: TrieUpdate,
  accountId: string,
  dataId: CryptoHash,
): Receipt | null {
  const key = trieKeyPromiseYieldReceipt(accountId, dataId);
  const raw = state.get(key);
  if (!raw) return null;
  state.remove(key);
  state.remove(trieKeyPromiseYieldStatus(accountId, dataId));
  const reverse = trieKeyDataIdToYieldId(accountId, dataId);
  const yieldId = state.get(reverse);
  if (yieldId) {
    state.remove(trieKeyYieldIdToDataId(accountId, yieldId));
    state.remove(reverse);
  }
  return decodeReceipt(raw);
}

export interface PromiseYieldTimeout {
  readonly accountId: string;
  readonly dataId: CryptoHash;
  readonly expiresAt: bigint;
}

/** The timeout queue; `flush` writes the indices back only when they changed, as nearcore does. */
export class PromiseYieldTimeoutQueue {
  private first: bigint;
  private next: bigint;
  private readonly initial: string;

  constructor(private readonly state: TrieUpdate) {
    ({ first: this.first, next: this.next } = readQueueIndices(state.get(trieKeyPromiseYieldIndices())));
    this.initial = `${this.first}:${this.next}`;
  }

  get length(): number {
    return Number(this.next - this.first);
  }

  enqueue(t: PromiseYieldTimeout): void {
    const w = new BorshWriter(64).string(t.accountId).fixed(t.dataId).u64(t.expiresAt);
    this.state.set(trieKeyPromiseYieldTimeout(this.next), w.toBytes());
    this.next += 1n;
  }

  peek(): PromiseYieldTimeout | null {
    if (this.first === this.next) return null;
    const raw = this.state.get(trieKeyPromiseYieldTimeout(this.first));
    if (!raw) throw new Error(`PromiseYield timeout queue entry #${this.first} should be in the state`);
    const r = new BorshReader(raw);
    const t = { accountId: r.string(), dataId: r.fixed(32).slice(), expiresAt: r.u64() };
    r.end();
    return t;
  }

  pop(): void {
    if (this.first === this.next) return;
    this.state.remove(trieKeyPromiseYieldTimeout(this.first));
    this.first += 1n;
  }

  flush(): boolean {
    if (`${this.first}:${this.next}` === this.initial) return false;
    this.state.set(trieKeyPromiseYieldIndices(), encodeQueueIndices(this.first, this.next));
    return true;
  }
}
