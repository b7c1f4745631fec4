// nearcore's genesis state applier for the records of receipts in flight (core/store/src/genesis/
// state_applier.rs): ReceivedData as it is, each DelayedReceipt at the next index of the delayed
// queue, and each PostponedReceipt after all data, waiting for the inputs no ReceivedData record
// delivered (a PromiseYield receipt under its one input, as a pending yield). None of them counts
// in an account's storage. The delayed queue's congestion gas and bytes are what the genesis chunk's
// congestion info starts from (nearcore's bootstrap_congestion_info).
import { BorshWriter, base58Encode, encodeReceipt, type Receipt } from '@nearlite/primitives';
import {
  DEFAULT_RUNTIME_CONFIG_VIEW,
  encodeQueueIndices,
  parseRuntimeConfig,
  type RuntimeConfig,
  receiptCongestionGas,
} from '@nearlite/runtime';
import {
  trieKeyDelayedReceipt,
  trieKeyDelayedReceiptIndices,
  trieKeyPendingDataCount,
  trieKeyPostponedReceipt,
  trieKeyPostponedReceiptId,
  trieKeyPromiseYieldReceipt,
  trieKeyReceivedData,
} from '@nearlite/trie';
import { receiptFromJson } from '../receipt_record.js';
import { accountId, base64, hash32, obj } from '../state_record_fields.js';
import { GenesisError } from './config.js';

/** The records this module applies; the others are state (trie/genesis_state.ts). */
export const RECEIPT_RECORD_KINDS: ReadonlySet<string> = new Set([
  'PostponedReceipt',
  'ReceivedData',
  'DelayedReceipt',
]);

export interface GenesisReceipts {
  readonly writes: { key: Uint8Array; value: Uint8Array }[];
  /** The delayed queue's congestion gas and borsh bytes. */
  readonly delayedGas: bigint;
  readonly delayedBytes: bigint;
}

let runtimeConfig: RuntimeConfig | undefined;

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** One shard's receipt records (in file order, each `{Kind: body}`) as trie writes. */
export function genesisReceiptWrites(
  records: readonly { index: number; record: unknown }[],
): GenesisReceipts {
  const writes: { key: Uint8Array; value: Uint8Array }[] = [];
  const received = new Set<string>();
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
        received.add(`${id}\0${hex(dataId)}`);
        // ReceivedData { data: Option<Vec<u8>> } in borsh.
        const value = new BorshWriter(8 + (data?.length ?? 0)).option(data, (w, d) => w.bytes(d)).toBytes();
        writes.push({ key: trieKeyReceivedData(id, dataId), value });
      } else if (kind === 'DelayedReceipt') {
        const receipt = receiptFromJson(body, path);
        const bytes = encodeReceipt(receipt);
        runtimeConfig ??= parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW);
        delayedGas += receiptCongestionGas(receipt, runtimeConfig);
        delayedBytes += BigInt(bytes.length);
        writes.push({ key: trieKeyDelayedReceipt(delayed), value: bytes });
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
    const to = receipt.receiverId;
    if (r.isPromiseYield) {
      if (r.inputDataIds.length !== 1)
        throw new GenesisError(`genesis: ${path}: a PromiseYield receipt waits for exactly one input`);
      writes.push({ key: trieKeyPromiseYieldReceipt(to, r.inputDataIds[0]!), value: encodeReceipt(receipt) });
      continue;
    }
    let pending = 0;
    for (const dataId of r.inputDataIds) {
      if (received.has(`${to}\0${hex(dataId)}`)) continue;
      pending += 1;
      writes.push({ key: trieKeyPostponedReceiptId(to, dataId), value: receipt.receiptId });
    }
    if (pending === 0)
      throw new GenesisError(
        `genesis: ${path}: postponed receipt ${base58Encode(receipt.receiptId)} has all its input data; a postponed receipt waits for some`,
      );
    writes.push({ key: trieKeyPendingDataCount(to, receipt.receiptId), value: u32le(pending) });
    writes.push({ key: trieKeyPostponedReceipt(to, receipt.receiptId), value: encodeReceipt(receipt) });
  }
  if (delayed > 0n)
    writes.push({ key: trieKeyDelayedReceiptIndices(), value: encodeQueueIndices(0n, delayed) });
  return { writes, delayedGas, delayedBytes };
}

function u32le(n: number): Uint8Array {
  return new BorshWriter(4).u32(n).toBytes();
}
