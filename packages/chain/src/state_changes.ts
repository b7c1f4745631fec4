// Per-block state changes with nearcore's causes, keyed `block ‖ trie key` so one account's changes
// in a block are a prefix scan. Written in the block's batch.
import { BorshReader, BorshWriter, type CryptoHash, concatBytes } from '@nearlite/primitives';
import { DBCol, type StoreUpdate } from '@nearlite/store';
import type { RawStateChangesWithTrieKey, StateChangeCause, StateChangeRecord } from '@nearlite/trie';

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

export function encodeStateChanges(
  update: StoreUpdate,
  blockHash: CryptoHash,
  changes: readonly RawStateChangesWithTrieKey[],
): void {
  for (const c of changes) {
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
