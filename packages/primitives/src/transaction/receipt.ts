// Receipts (nearcore core/primitives/src/receipt.rs): an action receipt carries actions from a
// signer; a data receipt carries a promise result to a waiting receipt. NEP-519's PromiseYield
// (tag 2) is an action receipt parked until its one input arrives, PromiseResume (tag 3) the data
// receipt that delivers it; both keep the layouts of Action (tag 0) and Data (tag 1).
import { BorshError, BorshReader, BorshWriter } from '../borsh.js';
import type { CryptoHash } from '../hash.js';
import { type PublicKey, readPublicKey, writePublicKey } from '../public_key.js';
import { type Action, readAccountId, readAction, writeAction } from './action.js';

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
}

export interface DataReceipt {
  readonly kind: 'Data';
  readonly dataId: CryptoHash;
  readonly data: Uint8Array | null;
  /** A PromiseResume receipt (ReceiptEnum::PromiseResume). */
  readonly isPromiseResume?: true;
}

export interface Receipt {
  readonly predecessorId: string;
  readonly receiverId: string;
  readonly receiptId: CryptoHash;
  readonly receipt: ActionReceipt | DataReceipt;
  /** Set only on a ReceiptV1 (written with a leading version byte); V0 receipts have none. */
  readonly priority?: bigint;
}

export function writeReceipt(w: BorshWriter, r: Receipt): void {
  if (r.priority !== undefined) w.u8(1);
  w.string(r.predecessorId).string(r.receiverId).fixed(r.receiptId);
  const x = r.receipt;
  if (x.kind === 'Action') {
    w.u8(x.isPromiseYield ? 2 : 0).string(x.signerId);
    writePublicKey(w, x.signerPublicKey);
    w.u128(x.gasPrice);
    w.vec(x.outputDataReceivers, (w, d) => w.fixed(d.dataId).string(d.receiverId));
    w.vec(x.inputDataIds, (w, id) => w.fixed(id));
    w.vec(x.actions, writeAction);
  } else {
    w.u8(x.isPromiseResume ? 3 : 1).fixed(x.dataId);
    w.option(x.data, (w, d) => w.bytes(d));
  }
  if (r.priority !== undefined) w.u64(r.priority);
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
  const v1 = bytes.length >= 2 && bytes[0] === 1 && bytes[1] !== 0;
  if (v1) r.u8();
  const predecessorId = readAccountId(r);
  const receiverId = readAccountId(r);
  const receiptId = r.fixed(32).slice();
  const tag = r.u8();
  let receipt: ActionReceipt | DataReceipt;
  if (tag === 0 || tag === 2) {
    const action: ActionReceipt = {
      kind: 'Action',
      signerId: readAccountId(r),
      signerPublicKey: readPublicKey(r),
      gasPrice: r.u128(),
      outputDataReceivers: r.vec((r) => ({ dataId: r.fixed(32).slice(), receiverId: readAccountId(r) })),
      inputDataIds: r.vec((r) => r.fixed(32).slice()),
      actions: r.vec((r) => readAction(r)),
    };
    receipt = tag === 2 ? { ...action, isPromiseYield: true } : action;
  } else if (tag === 1 || tag === 3) {
    const data: DataReceipt = {
      kind: 'Data',
      dataId: r.fixed(32).slice(),
      data: r.option((r) => r.bytes().slice()),
    };
    receipt = tag === 3 ? { ...data, isPromiseResume: true } : data;
  } else throw new BorshError(`unknown receipt kind ${tag}`);
  const priority = v1 ? r.u64() : undefined;
  r.end();
  const out: Receipt = { predecessorId, receiverId, receiptId, receipt };
  return priority === undefined ? out : { ...out, priority };
}
