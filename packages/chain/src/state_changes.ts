// Per-block state changes with nearcore's causes, keyed `block ‖ trie key` so one account's changes
// in a block are a prefix scan. Written in the block's batch.
//
// Only the columns the changes RPC reports are kept, as nearcore keeps them (shard_tries.rs,
// state_changes_into): accounts, contract code, access keys (gas key nonces among them) and
// contract data. The other keys (queues, postponed receipts, the bandwidth scheduler's state) are
// not all keyed by account, so on a chain of several shards the same key would be written by every
// shard's chunk into one row.
import { BorshReader, BorshWriter, type CryptoHash, concatBytes } from '@nearlite/primitives';
import { DBCol, type StoreUpdate } from '@nearlite/store';
import {
  type RawStateChangesWithTrieKey,
  type StateChangeCause,
  type StateChangeRecord,
  TrieKeyCol,
} from '@nearlite/trie';

const CAUSES = [
  'not_writable_to_disk',
  'initial_state',
  'transaction_processing',
  'action_receipt_processing_started',
  'action_receipt_gas_reward',
  'receipt_processing',
  'postponed_receipt',
  'updated_delayed_receipts',
  'validator_accounts_update',
  'migration',
  'resharding',
  'bandwidth_scheduler_state_update',
] as const;

function writeCause(w: BorshWriter, c: StateChangeCause): void {
  w.u8(CAUSES.indexOf(c.type));
  if (c.type === 'transaction_processing') w.fixed(c.txHash);
  else if ('receiptHash' in c) w.fixed(c.receiptHash);
}

function readCause(r: BorshReader): StateChangeCause {
  const type = CAUSES[r.u8()];
  switch (type) {
    case 'transaction_processing':
      return { type, txHash: r.fixed(32) };
    case 'action_receipt_processing_started':
    case 'action_receipt_gas_reward':
    case 'receipt_processing':
    case 'postponed_receipt':
      return { type, receiptHash: r.fixed(32) };
    case undefined:
      throw new RangeError('unknown state change cause');
    default:
      return { type };
  }
}

const REPORTED = new Set<number>([
  TrieKeyCol.Account,
  TrieKeyCol.ContractCode,
  TrieKeyCol.AccessKey,
  TrieKeyCol.ContractData,
]);

export function encodeStateChanges(
  update: StoreUpdate,
  blockHash: CryptoHash,
  changes: readonly RawStateChangesWithTrieKey[],
): void {
  for (const c of changes) {
    if (!REPORTED.has(c.key[0]!)) continue;
    const w = new BorshWriter(64);
    w.vec(c.changes, (w, ch) => {
      writeCause(w, ch.cause);
      w.option(ch.value, (w, v) => w.bytes(v));
    });
    update.put(DBCol.StateChanges, concatBytes(blockHash, c.key), w.written());
  }
}

export function decodeStateChangeRecords(bytes: Uint8Array): StateChangeRecord[] {
  const r = new BorshReader(bytes);
  return r.vec((r) => ({ cause: readCause(r), value: r.option((r) => r.bytes().slice()) }));
}
