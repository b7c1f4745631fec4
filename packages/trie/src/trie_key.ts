// nearcore's TrieKey encodings (core/primitives/src/trie_key.rs): one column byte, then the account
// id without a length prefix, then a separator and the rest. AccessKey's separator is the byte 0x02
// (kept for history); the others use ','.
import {
  BorshReader,
  BorshWriter,
  type CryptoHash,
  concatBytes,
  fromUtf8,
  type GlobalContractIdentifier,
  type PublicKey,
  publicKeyHandle,
  readPublicKeyHandle,
  setU64,
  utf8,
} from '@nearlite/primitives';

export const TrieKeyCol = {
  Account: 0,
  ContractCode: 1,
  AccessKey: 2,
  ReceivedData: 3,
  PostponedReceiptId: 4,
  PendingDataCount: 5,
  PostponedReceipt: 6,
  /**
   * nearcore's DELAYED_RECEIPT_OR_INDICES: the queue's indices (the byte alone) and each delayed
   * receipt (the byte ‖ u64 LE index) share it, told apart by their length.
   */
  DelayedReceiptOrIndices: 7,
  ContractData: 9,
  PromiseYieldIndices: 10,
  PromiseYieldTimeout: 11,
  PromiseYieldReceipt: 12,
  BufferedReceiptIndices: 13,
  BufferedReceipt: 14,
  BandwidthSchedulerState: 15,
  BufferedReceiptGroupsQueueData: 16,
  BufferedReceiptGroupsQueueItem: 17,
  GlobalContractCode: 18,
  GlobalContractNonce: 19,
  PromiseYieldStatus: 20,
  // 21 is nearcore's TrieKey::GasKeyNonce discriminant (stored under AccessKey), no column of its own.
  YieldIdToDataId: 22,
  DataIdToYieldId: 23,
} as const;

const COMMA = 0x2c;
const NO_SEPARATOR = -1;
const NOTHING = new Uint8Array(0);

/**
 * column ‖ account id ‖ separator ‖ tail in one allocation (a public key's tail is its type byte,
 * then its data): these keys are built several times for every transaction, for the access key and
 * account reads and writes of its checks and its application. Valid account ids are ASCII; any
 * other string takes the UTF-8 path.
 */
function accountKey(
  c: number,
  id: string,
  sep: number,
  tail: Uint8Array,
  tailType = NO_SEPARATOR,
): Uint8Array {
  const n = id.length;
  const head = (sep === NO_SEPARATOR ? 1 + n : 2 + n) + (tailType === NO_SEPARATOR ? 0 : 1);
  const out = new Uint8Array(head + tail.length);
  out[0] = c;
  for (let i = 0; i < n; i++) {
    const ch = id.charCodeAt(i);
    if (ch > 0x7f) {
      const parts = [Uint8Array.of(c), utf8(id)];
      if (sep !== NO_SEPARATOR) parts.push(Uint8Array.of(sep));
      if (tailType !== NO_SEPARATOR) parts.push(Uint8Array.of(tailType));
      parts.push(tail);
      return concatBytes(...parts);
    }
    out[1 + i] = ch;
  }
  if (sep !== NO_SEPARATOR) out[1 + n] = sep;
  if (tailType !== NO_SEPARATOR) out[head - 1] = tailType;
  out.set(tail, head);
  return out;
}

export const trieKeyAccount = (id: string) => accountKey(TrieKeyCol.Account, id, NO_SEPARATOR, NOTHING);
export const trieKeyContractCode = (id: string) =>
  accountKey(TrieKeyCol.ContractCode, id, NO_SEPARATOR, NOTHING);
// AccessKey's separator is the column byte itself.
export const trieKeyAccessKeyPrefix = (id: string) =>
  accountKey(TrieKeyCol.AccessKey, id, TrieKeyCol.AccessKey, NOTHING);
/** An ML-DSA-65 key is stored under its handle (`publicKeyHandle`); any other under itself. */
export const trieKeyAccessKey = (id: string, pk: PublicKey) => {
  const h = publicKeyHandle(pk);
  return accountKey(TrieKeyCol.AccessKey, id, TrieKeyCol.AccessKey, h.data, h.keyType);
};
/**
 * One nonce of a gas key: the key's own trie key and the nonce's index (u16 LE). nearcore's
 * `TrieKey::GasKeyNonce`, whose column byte is never written: the row sorts right after its key.
 */
export const trieKeyGasKeyNonce = (id: string, pk: PublicKey, index: number): Uint8Array =>
  gasKeyNonceKey(trieKeyAccessKey(id, pk), index);
/** The key of a gas key's nonce from the gas key's own trie key, for walks over all of its nonces. */
export const gasKeyNonceKey = (accessKeyKey: Uint8Array, index: number): Uint8Array => {
  const out = new Uint8Array(accessKeyKey.length + 2);
  out.set(accessKeyKey);
  out[accessKeyKey.length] = index & 0xff;
  out[accessKeyKey.length + 1] = index >> 8;
  return out;
};
export const trieKeyContractDataPrefix = (id: string) =>
  accountKey(TrieKeyCol.ContractData, id, COMMA, NOTHING);
export const trieKeyContractData = (id: string, key: Uint8Array) =>
  accountKey(TrieKeyCol.ContractData, id, COMMA, key);
export const trieKeyReceivedData = (id: string, dataId: CryptoHash) =>
  accountKey(TrieKeyCol.ReceivedData, id, COMMA, dataId);
export const trieKeyPostponedReceiptId = (id: string, dataId: CryptoHash) =>
  accountKey(TrieKeyCol.PostponedReceiptId, id, COMMA, dataId);
export const trieKeyPendingDataCount = (id: string, receiptId: CryptoHash) =>
  accountKey(TrieKeyCol.PendingDataCount, id, COMMA, receiptId);
export const trieKeyPostponedReceipt = (id: string, receiptId: CryptoHash) =>
  accountKey(TrieKeyCol.PostponedReceipt, id, COMMA, receiptId);
const col = (c: number) => Uint8Array.of(c);
export const trieKeyDelayedReceiptIndices = () => col(TrieKeyCol.DelayedReceiptOrIndices);
export const trieKeyDelayedReceipt = (index: bigint) => indexKey(TrieKeyCol.DelayedReceiptOrIndices, index);
/**
 * Where stores written by earlier versions kept a delayed receipt (the byte 8, which nearcore never
 * uses): read only to carry such a queue over.
 */
export const legacyTrieKeyDelayedReceipt = (index: bigint) => indexKey(8, index);
function indexKey(c: number, index: bigint): Uint8Array {
  const out = new Uint8Array(9);
  out[0] = c;
  setU64(out, 1, index, true);
  return out;
}
export const trieKeyPromiseYieldIndices = () => col(TrieKeyCol.PromiseYieldIndices);
/** The indices of every outgoing buffer, one value (nearcore's BufferedReceiptIndices). */
export const trieKeyBufferedReceiptIndices = () => col(TrieKeyCol.BufferedReceiptIndices);
/** column ‖ receiving shard u64 LE ‖ index u64 LE, as nearcore's BufferedReceipt. */
export const trieKeyBufferedReceipt = (receivingShard: number, index: bigint) =>
  shardIndexKey(TrieKeyCol.BufferedReceipt, receivingShard, index);
export const trieKeyBufferedReceiptGroupsQueueData = (receivingShard: number) => {
  const out = new Uint8Array(9);
  out[0] = TrieKeyCol.BufferedReceiptGroupsQueueData;
  setU64(out, 1, BigInt(receivingShard), true);
  return out;
};
export const trieKeyBufferedReceiptGroupsQueueItem = (receivingShard: number, index: bigint) =>
  shardIndexKey(TrieKeyCol.BufferedReceiptGroupsQueueItem, receivingShard, index);
function shardIndexKey(c: number, shard: number, index: bigint): Uint8Array {
  const out = new Uint8Array(17);
  out[0] = c;
  setU64(out, 1, BigInt(shard), true);
  setU64(out, 9, index, true);
  return out;
}
export const trieKeyBandwidthSchedulerState = () => col(TrieKeyCol.BandwidthSchedulerState);
export const trieKeyPromiseYieldTimeout = (index: bigint) => indexKey(TrieKeyCol.PromiseYieldTimeout, index);
export const trieKeyPromiseYieldReceipt = (id: string, dataId: CryptoHash) =>
  accountKey(TrieKeyCol.PromiseYieldReceipt, id, COMMA, dataId);
export const trieKeyPromiseYieldStatus = (id: string, dataId: CryptoHash) =>
  accountKey(TrieKeyCol.PromiseYieldStatus, id, COMMA, dataId);
export const trieKeyYieldIdToDataId = (id: string, yieldId: Uint8Array) =>
  accountKey(TrieKeyCol.YieldIdToDataId, id, COMMA, yieldId);
export const trieKeyDataIdToYieldId = (id: string, dataId: CryptoHash) =>
  accountKey(TrieKeyCol.DataIdToYieldId, id, COMMA, dataId);

/**
 * GlobalContractCode and GlobalContractNonce keys carry no account prefix: the column byte, then the
 * borsh GlobalContractCodeIdentifier (0 ‖ code hash, or 1 ‖ u32 length ‖ account id).
 */
function globalContractKey(c: number, id: GlobalContractIdentifier): Uint8Array {
  const w = new BorshWriter(48).u8(c);
  if (id.kind === 'CodeHash') w.u8(0).fixed(id.hash);
  else w.u8(1).string(id.accountId);
  return w.toBytes();
}
export const trieKeyGlobalContractCode = (id: GlobalContractIdentifier) =>
  globalContractKey(TrieKeyCol.GlobalContractCode, id);
export const trieKeyGlobalContractNonce = (id: GlobalContractIdentifier) =>
  globalContractKey(TrieKeyCol.GlobalContractNonce, id);

export type ParsedTrieKey =
  | { readonly col: 'account'; readonly accountId: string }
  | { readonly col: 'contract_code'; readonly accountId: string }
  | { readonly col: 'access_key'; readonly accountId: string; readonly publicKey: PublicKey }
  | {
      readonly col: 'gas_key_nonce';
      readonly accountId: string;
      readonly publicKey: PublicKey;
      readonly index: number;
    }
  | { readonly col: 'contract_data'; readonly accountId: string; readonly key: Uint8Array }
  | {
      readonly col:
        | 'received_data'
        | 'postponed_receipt_id'
        | 'pending_data_count'
        | 'postponed_receipt'
        | 'promise_yield_receipt';
      readonly accountId: string;
      readonly hash: CryptoHash;
    }
  | { readonly col: 'delayed_receipt_indices' | 'promise_yield_indices' | 'buffered_receipt_indices' }
  | { readonly col: 'delayed_receipt'; readonly index: bigint }
  | {
      readonly col: 'global_contract_code' | 'global_contract_nonce';
      readonly identifier: GlobalContractIdentifier;
    }
  | { readonly col: 'other'; readonly raw: Uint8Array };

export class TrieKeyParseError extends Error {
  override readonly name = 'TrieKeyParseError';
}

function splitAt(rest: Uint8Array, sep: number): [string, Uint8Array] {
  const i = rest.indexOf(sep);
  if (i < 0) throw new TrieKeyParseError('trie key has no separator');
  return [fromUtf8(rest.subarray(0, i)), rest.subarray(i + 1)];
}

const HASH_COLS = {
  [TrieKeyCol.ReceivedData]: 'received_data',
  [TrieKeyCol.PostponedReceiptId]: 'postponed_receipt_id',
  [TrieKeyCol.PendingDataCount]: 'pending_data_count',
  [TrieKeyCol.PostponedReceipt]: 'postponed_receipt',
  [TrieKeyCol.PromiseYieldReceipt]: 'promise_yield_receipt',
} as const;

export function parseTrieKey(key: Uint8Array): ParsedTrieKey {
  const c = key[0];
  const rest = key.subarray(1);
  switch (c) {
    case TrieKeyCol.Account:
      return { col: 'account', accountId: fromUtf8(rest) };
    case TrieKeyCol.ContractCode:
      return { col: 'contract_code', accountId: fromUtf8(rest) };
    case TrieKeyCol.AccessKey: {
      // The account id cannot contain 0x02, so the first 0x02 is the separator.
      const [accountId, pk] = splitAt(rest, TrieKeyCol.AccessKey);
      const r = new BorshReader(pk);
      const publicKey = readPublicKeyHandle(r);
      // Two bytes more name one of a gas key's nonces.
      if (r.remaining === 2) return { col: 'gas_key_nonce', accountId, publicKey, index: r.u16() };
      return { col: 'access_key', accountId, publicKey };
    }
    case TrieKeyCol.ContractData: {
      const [accountId, k] = splitAt(rest, 0x2c);
      return { col: 'contract_data', accountId, key: k.slice() };
    }
    case TrieKeyCol.ReceivedData:
    case TrieKeyCol.PostponedReceiptId:
    case TrieKeyCol.PendingDataCount:
    case TrieKeyCol.PostponedReceipt:
    case TrieKeyCol.PromiseYieldReceipt: {
      const cut = rest.length - 33;
      if (cut < 0 || rest[cut] !== 0x2c) throw new TrieKeyParseError('malformed trie key');
      return { col: HASH_COLS[c], accountId: fromUtf8(rest.subarray(0, cut)), hash: rest.slice(cut + 1) };
    }
    case TrieKeyCol.DelayedReceiptOrIndices:
      if (rest.length === 0) return { col: 'delayed_receipt_indices' };
      if (rest.length !== 8) throw new TrieKeyParseError('malformed delayed receipt key');
      return {
        col: 'delayed_receipt',
        index: new DataView(rest.buffer, rest.byteOffset).getBigUint64(0, true),
      };
    case TrieKeyCol.PromiseYieldIndices:
      return { col: 'promise_yield_indices' };
    case TrieKeyCol.BufferedReceiptIndices:
      return { col: 'buffered_receipt_indices' };
    case TrieKeyCol.GlobalContractCode:
    case TrieKeyCol.GlobalContractNonce: {
      const r = new BorshReader(rest);
      const tag = r.u8();
      let identifier: GlobalContractIdentifier;
      if (tag === 0) identifier = { kind: 'CodeHash', hash: r.fixed(32).slice() };
      else if (tag === 1) identifier = { kind: 'AccountId', accountId: r.string() };
      else throw new TrieKeyParseError('malformed global contract key');
      r.end();
      return {
        col: c === TrieKeyCol.GlobalContractCode ? 'global_contract_code' : 'global_contract_nonce',
        identifier,
      };
    }
    default:
      return { col: 'other', raw: key };
  }
}
