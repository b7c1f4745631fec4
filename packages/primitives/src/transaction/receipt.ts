// Receipts (nearcore core/primitives/src/receipt.rs): an action receipt carries actions from a
// signer; a data receipt carries a promise result to a waiting receipt. NEP-519's PromiseYield
// (tag 2) is an action receipt parked until its one input arrives, PromiseResume (tag 3) the data
// receipt that delivers it; both keep the layouts of Action (tag 0) and Data (tag 1).
// GlobalContractDistribution (tag 4) carries a global contract's code from shard to shard.
import { BorshError, BorshReader, BorshWriter } from '../borsh.js';
import type { CryptoHash } from '../hash.js';
import { type PublicKey, readPublicKey, writePublicKey } from '../public_key.js';
import {
  type Action,
  type GlobalContractIdentifier,
  readAccountId,
  readAction,
  readGlobalContractIdentifier,
  writeAction,
  writeGlobalContractIdentifier,
} from './action.js';

export interface DataReceiver {
  readonly dataId: CryptoHash;
  readonly receiverId: string;
}

export interface ActionReceipt {
  readonly kind: 'Action';
  readonly signerId: string;
  readonly signerPublicKey: PublicKey;
  readonly gasPrice: bigint;
  readonly outputDataReceivers: readonly DataReceiver[];
  readonly inputDataIds: readonly CryptoHash[];
  readonly actions: readonly Action[];
  /** A PromiseYield receipt (ReceiptEnum::PromiseYield). */
  readonly isPromiseYield?: true;
  /**
   * Where balance refunds of this receipt go instead of its predecessor (a contract's
   * `promise_set_refund_to`). Present only on an ActionReceiptV2 (ReceiptEnum::ActionV2 or
   * PromiseYieldV2), where null is its `None`.
   */
  readonly refundTo?: string | null;
}

export interface DataReceipt {
  readonly kind: 'Data';
  readonly dataId: CryptoHash;
  readonly data: Uint8Array | null;
  /** A PromiseResume receipt (ReceiptEnum::PromiseResume). */
  readonly isPromiseResume?: true;
}

/**
 * Carries a global contract's code from shard to shard (nearcore's GlobalContractDistributionReceipt,
 * V2 since GlobalContractDistributionNonce: the nonce lets a shard ignore an older deploy that
 * arrives after a newer one). It is routed to `targetShard`, not to its receiver (`system`).
 */
export interface GlobalContractDistributionReceipt {
  readonly kind: 'GlobalContractDistribution';
  readonly id: GlobalContractIdentifier;
  readonly targetShard: bigint;
  readonly alreadyDeliveredShards: readonly bigint[];
  readonly code: Uint8Array;
  /** Absent on a V1 receipt (nonce 0). */
  readonly nonce?: bigint;
}

export type ReceiptEnum = ActionReceipt | DataReceipt | GlobalContractDistributionReceipt;

export interface Receipt {
  readonly predecessorId: string;
  readonly receiverId: string;
  readonly receiptId: CryptoHash;
  readonly receipt: ReceiptEnum;
  /** Set only on a ReceiptV1 (written with a leading version byte); V0 receipts have none. */
  readonly priority?: bigint;
}

/**
 * nearcore's Receipt::is_instant_receipt: a receipt run right after the receipt that made it, in the
 * same chunk and past its gas limit, instead of travelling as an outgoing receipt. Parking a yield is
 * one write; deleting an account (since protocol 83) a few.
 */
export function isInstantReceipt(r: Receipt): boolean {
  const ar = r.receipt;
  if (ar.kind !== 'Action') return false;
  if (ar.isPromiseYield) return true;
  return ar.actions.length === 1 && ar.actions[0]!.type === 'DeleteAccount' && ar.inputDataIds.length === 0;
}

/** nearcore's Receipt::balance_refund_receiver: the receipt's refund_to, else its predecessor. */
export function balanceRefundReceiver(r: Receipt): string {
  return (r.receipt.kind === 'Action' && r.receipt.refundTo) || r.predecessorId;
}

export function writeReceipt(w: BorshWriter, r: Receipt): void {
  if (r.priority !== undefined) w.u8(1);
  w.string(r.predecessorId).string(r.receiverId).fixed(r.receiptId);
  const x = r.receipt;
  if (x.kind === 'Action') {
    if (x.refundTo === undefined) w.u8(x.isPromiseYield ? 2 : 0).string(x.signerId);
    else
      w.u8(x.isPromiseYield ? 6 : 5)
        .string(x.signerId)
        .option(x.refundTo, (w, id) => w.string(id));
    writePublicKey(w, x.signerPublicKey);
    w.u128(x.gasPrice);
    w.vec(x.outputDataReceivers, (w, d) => w.fixed(d.dataId).string(d.receiverId));
    w.vec(x.inputDataIds, (w, id) => w.fixed(id));
    w.vec(x.actions, writeAction);
  } else if (x.kind === 'Data') {
    w.u8(x.isPromiseResume ? 3 : 1).fixed(x.dataId);
    w.option(x.data, (w, d) => w.bytes(d));
  } else {
    w.u8(4).u8(x.nonce === undefined ? 0 : 1);
    writeGlobalContractIdentifier(w, x.id);
    w.u64(x.targetShard);
    w.vec(x.alreadyDeliveredShards, (w, s) => w.u64(s));
    w.bytes(x.code);
    if (x.nonce !== undefined) w.u64(x.nonce);
  }
  if (r.priority !== undefined) w.u64(r.priority);
}

/**
 * nearcore's ReceivedData, what the trie keeps of a data receipt until its receipt runs:
 * `{ data: Option<Vec<u8>> }` in borsh, None for a failed promise.
 */
export function encodeReceivedData(data: Uint8Array | null): Uint8Array {
  return new BorshWriter(8 + (data?.length ?? 0)).option(data, (w, d) => w.bytes(d)).toBytes();
}

export function decodeReceivedData(bytes: Uint8Array): Uint8Array | null {
  const r = new BorshReader(bytes);
  const data = r.option((r) => r.bytes().slice());
  r.end();
  return data;
}

export function encodeReceipt(r: Receipt): Uint8Array {
  const w = new BorshWriter(256);
  writeReceipt(w, r);
  return w.toBytes();
}

/**
 * Decodes a Receipt. Like transactions, V1 is told from V0 by its first two bytes: a V0 starts with
 * the u32 length of an account id (byte 1 is 0), a V1 with the tag 1 and then that length.
 */
export function decodeReceipt(bytes: Uint8Array): Receipt {
  const r = new BorshReader(bytes);
  const receipt = readReceipt(r);
  r.end();
  return receipt;
}

/** A stored Receipt's predecessor, read without decoding the rest (its actions may be large). */
export function receiptPredecessorId(bytes: Uint8Array): string {
  const r = new BorshReader(bytes);
  readReceiptVersion(r);
  return readAccountId(r);
}

/** Steps over a V1's tag; whether there was one. */
function readReceiptVersion(r: BorshReader): boolean {
  const second = r.peek(1);
  const v1 = r.peek() === 1 && second !== undefined && second !== 0;
  if (v1) r.u8();
  return v1;
}

/** Reads a Receipt at the reader's position. */
export function readReceipt(r: BorshReader): Receipt {
  const v1 = readReceiptVersion(r);
  const predecessorId = readAccountId(r);
  const receiverId = readAccountId(r);
  const receiptId = r.fixed(32).slice();
  const tag = r.u8();
  let receipt: ReceiptEnum;
  if (tag === 0 || tag === 2 || tag === 5 || tag === 6) {
    const signerId = readAccountId(r);
    // ActionReceiptV2 (tags 5 and 6) carries refund_to right after the signer.
    const refundTo = tag >= 5 ? r.option(readAccountId) : undefined;
    const action: ActionReceipt = {
      kind: 'Action',
      signerId,
      signerPublicKey: readPublicKey(r),
      gasPrice: r.u128(),
      outputDataReceivers: r.vec((r) => ({ dataId: r.fixed(32).slice(), receiverId: readAccountId(r) })),
      inputDataIds: r.vec((r) => r.fixed(32).slice()),
      actions: r.vec((r) => readAction(r)),
      ...(refundTo === undefined ? {} : { refundTo }),
    };
    receipt = tag === 2 || tag === 6 ? { ...action, isPromiseYield: true } : action;
  } else if (tag === 1 || tag === 3) {
    const data: DataReceipt = {
      kind: 'Data',
      dataId: r.fixed(32).slice(),
      data: r.option((r) => r.bytes().slice()),
    };
    receipt = tag === 3 ? { ...data, isPromiseResume: true } : data;
  } else if (tag === 4) {
    const version = r.u8();
    if (version > 1) throw new BorshError(`unknown global contract distribution version ${version}`);
    const d = {
      kind: 'GlobalContractDistribution' as const,
      id: readGlobalContractIdentifier(r),
      targetShard: r.u64(),
      alreadyDeliveredShards: r.vec((r) => r.u64()),
      code: r.bytes().slice(),
    };
    receipt = version === 1 ? { ...d, nonce: r.u64() } : d;
  } else throw new BorshError(`unknown receipt kind ${tag}`);
  const priority = v1 ? r.u64() : undefined;
  const out: Receipt = { predecessorId, receiverId, receiptId, receipt };
  return priority === undefined ? out : { ...out, priority };
}
