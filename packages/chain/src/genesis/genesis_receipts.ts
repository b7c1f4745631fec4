// nearcore's genesis state applier for the records of receipts in flight (core/store/src/genesis/
// state_applier.rs): ReceivedData as it is, each DelayedReceipt at the next index of the delayed
// queue, and each PostponedReceipt after all data, parked as the runtime parks one (waiting for the
// inputs no ReceivedData record delivered; a PromiseYield receipt under its one input). None of them
// counts in an account's storage. The delayed queue's congestion gas and bytes are what the genesis
// chunk's congestion info starts from (nearcore's bootstrap_congestion_info).
import { base58Encode, encodeReceipt, encodeReceivedData, type Receipt } from '@nearlite/primitives';
import {
  DEFAULT_RUNTIME_CONFIG_VIEW,
  encodeQueueIndices,
  parseRuntimeConfig,
  postponeIfWaiting,
  type RuntimeConfig,
  receiptCongestionGas,
  setPromiseYieldReceipt,
} from '@nearlite/runtime';
import {
  TrieUpdate,
  trieKeyDelayedReceipt,
  trieKeyDelayedReceiptIndices,
  trieKeyReceivedData,
} from '@nearlite/trie';
import { receiptFromJson } from '../receipt_record.js';
import { accountId, base64, hash32, obj } from '../state_record_fields.js';
import { GenesisError } from './config.js';

const RECEIPT_RECORD_KINDS: ReadonlySet<string> = new Set([
  'PostponedReceipt',
  'ReceivedData',
  'DelayedReceipt',
]);

/** Whether a genesis record is one this module applies (the others are state: trie/genesis_state.ts). */
export function isReceiptRecord(record: object): boolean {
  return RECEIPT_RECORD_KINDS.has(Object.keys(record)[0] ?? '');
}

export interface GenesisReceipts {
  readonly writes: { key: Uint8Array; value: Uint8Array }[];
  /** The delayed queue's congestion gas and borsh bytes. */
  readonly delayedGas: bigint;
  readonly delayedBytes: bigint;
}

let runtimeConfig: RuntimeConfig | undefined;

/** One shard's receipt records (in file order, each `{Kind: body}`) as trie writes. */
export function genesisReceiptWrites(
  records: readonly { index: number; record: unknown }[],
): GenesisReceipts {
  // Written through the runtime's own overlay, on an empty shard: the postponed receipts see the
  // data written before them, as nearcore's applier reads its trie.
  const state = new TrieUpdate({ get: () => undefined });
  const postponed: { receipt: Receipt; path: string }[] = [];
  let delayed = 0n;
  let delayedGas = 0n;
  let delayedBytes = 0n;
  for (const { index, record } of records) {
    const top = `records[${index}]`;
    const [kind, body] = Object.entries(obj(record, top))[0] ?? [];
    const path = `${top}.${kind}`;
    try {
      if (kind === 'ReceivedData') {
        const o = obj(body, path);
        const id = accountId(o, 'account_id', path);
        const dataId = hash32(o, 'data_id', path);
        const data = o.data === null || o.data === undefined ? null : base64(o, 'data', path);
        state.set(trieKeyReceivedData(id, dataId), encodeReceivedData(data));
      } else if (kind === 'DelayedReceipt') {
        const receipt = receiptFromJson(body, path);
        const bytes = encodeReceipt(receipt);
        runtimeConfig ??= parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW);
        delayedGas += receiptCongestionGas(receipt, runtimeConfig);
        delayedBytes += BigInt(bytes.length);
        state.set(trieKeyDelayedReceipt(delayed), bytes);
        delayed += 1n;
      } else {
        postponed.push({ receipt: receiptFromJson(body, path), path });
      }
    } catch (err) {
      throw new GenesisError(`genesis: ${(err as Error).message}`);
    }
  }
  for (const { receipt, path } of postponed) {
    const r = receipt.receipt;
    if (r.kind !== 'Action') throw new GenesisError(`genesis: ${path}: expected an action receipt`);
    if (r.isPromiseYield) {
      if (r.inputDataIds.length !== 1)
        throw new GenesisError(`genesis: ${path}: a PromiseYield receipt waits for exactly one input`);
      setPromiseYieldReceipt(state, receipt);
      continue;
    }
    if (r.inputDataIds.every((id) => state.has(trieKeyReceivedData(receipt.receiverId, id))))
      throw new GenesisError(
        `genesis: ${path}: postponed receipt ${base58Encode(receipt.receiptId)} has all its input data; a postponed receipt waits for some`,
      );
    postponeIfWaiting(state, receipt);
  }
  if (delayed > 0n) state.set(trieKeyDelayedReceiptIndices(), encodeQueueIndices(0n, delayed));
  state.commit({ type: 'initial_state' });
  const writes = state.finalize().changes.map(({ key, value }) => ({ key, value: value! }));
  return { writes, delayedGas, delayedBytes };
}
