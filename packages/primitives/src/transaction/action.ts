// nearcore's Action enum in discriminant order, with hand-written borsh codecs.
import { type AccessKey, readAccessKey, writeAccessKey } from '../account.js';
import { accountIdError } from '../account_id.js';
import { BorshError, type BorshReader, type BorshWriter } from '../borsh.js';
import { type CryptoHash, compareBytes } from '../hash.js';
import {
  type PublicKey,
  readPublicKey,
  readSignature,
  type Signature,
  writePublicKey,
  writeSignature,
} from '../public_key.js';
import { writeStateInit } from './state_init.js';

export type Action =
  | { readonly type: 'CreateAccount' }
  | { readonly type: 'DeployContract'; readonly code: Uint8Array }
  | {
      readonly type: 'FunctionCall';
      readonly methodName: string;
      readonly args: Uint8Array;
      readonly gas: bigint;
      readonly deposit: bigint;
    }
  | { readonly type: 'Transfer'; readonly deposit: bigint }
  | { readonly type: 'Stake'; readonly stake: bigint; readonly publicKey: PublicKey }
  | { readonly type: 'AddKey'; readonly publicKey: PublicKey; readonly accessKey: AccessKey }
  | { readonly type: 'DeleteKey'; readonly publicKey: PublicKey }
  /** Adds to a gas key's balance, from the sender's (GasKeys, 85). */
  | { readonly type: 'TransferToGasKey'; readonly publicKey: PublicKey; readonly deposit: bigint }
  /** Moves part of a gas key's balance back to its account (GasKeys, 85). */
  | { readonly type: 'WithdrawFromGasKey'; readonly publicKey: PublicKey; readonly amount: bigint }
  | { readonly type: 'DeleteAccount'; readonly beneficiaryId: string }
  | { readonly type: 'Delegate'; readonly delegateAction: DelegateAction; readonly signature: Signature }
  /**
   * NEP-611's versioned delegate action (DelegateV2, protocol 85): a DelegateActionV2, whose nonce
   * may be one of a gas key's (`nonceIndex`), signed under its own NEP-461 prefix.
   */
  | { readonly type: 'DelegateV2'; readonly delegateAction: DelegateAction; readonly signature: Signature }
  | { readonly type: 'DeployGlobalContract'; readonly code: Uint8Array; readonly deployMode: 0 | 1 }
  | { readonly type: 'UseGlobalContract'; readonly identifier: GlobalContractIdentifier }
  | {
      readonly type: 'DeterministicStateInit';
      /** StateInit V1: the global contract to use and the initial contract data, keys ascending. */
      readonly code: GlobalContractIdentifier;
      readonly data: readonly (readonly [Uint8Array, Uint8Array])[];
      readonly deposit: bigint;
    };

export type GlobalContractIdentifier =
  | { readonly kind: 'CodeHash'; readonly hash: CryptoHash }
  | { readonly kind: 'AccountId'; readonly accountId: string };

export interface DelegateAction {
  readonly senderId: string;
  readonly receiverId: string;
  readonly actions: readonly Action[];
  readonly nonce: bigint;
  readonly maxBlockHeight: bigint;
  readonly publicKey: PublicKey;
  /** A DelegateActionV2's `GasKeyNonce`: which of the signing gas key's nonces `nonce` is. */
  readonly nonceIndex?: number;
}

/** A Delegate or a DelegateV2: a meta transaction, however versioned. */
export type AnyDelegate = Extract<Action, { type: 'Delegate' | 'DelegateV2' }>;

export const isDelegate = (a: Action): a is AnyDelegate => a.type === 'Delegate' || a.type === 'DelegateV2';

/** nearcore's Action variants by name, in the order of their borsh discriminants. */
export const ACTION_TYPES = [
  'CreateAccount',
  'DeployContract',
  'FunctionCall',
  'Transfer',
  'Stake',
  'AddKey',
  'DeleteKey',
  'DeleteAccount',
  'Delegate',
  'DeployGlobalContract',
  'UseGlobalContract',
  'DeterministicStateInit',
  'TransferToGasKey',
  'WithdrawFromGasKey',
  'DelegateV2',
] as const;

/** Reads a borsh account id, validating it as nearcore's deserializer does. */
export function readAccountId(r: BorshReader): string {
  const id = r.string();
  const err = accountIdError(id);
  if (err !== null) throw new BorshError(`invalid value: "${id}", ${err}`);
  return id;
}

export function writeAction(w: BorshWriter, a: Action): void {
  w.u8(ACTION_TYPES.indexOf(a.type));
  switch (a.type) {
    case 'CreateAccount':
      return;
    case 'DeployContract':
      w.bytes(a.code);
      return;
    case 'FunctionCall':
      w.string(a.methodName).bytes(a.args).u64(a.gas).u128(a.deposit);
      return;
    case 'Transfer':
      w.u128(a.deposit);
      return;
    case 'Stake':
      w.u128(a.stake);
      writePublicKey(w, a.publicKey);
      return;
    case 'AddKey':
      writePublicKey(w, a.publicKey);
      writeAccessKey(w, a.accessKey);
      return;
    case 'DeleteKey':
      writePublicKey(w, a.publicKey);
      return;
    case 'DeleteAccount':
      w.string(a.beneficiaryId);
      return;
    case 'Delegate':
      writeDelegateAction(w, a.delegateAction);
      writeSignature(w, a.signature);
      return;
    case 'DeployGlobalContract':
      w.bytes(a.code).u8(a.deployMode);
      return;
    case 'UseGlobalContract':
      writeGlobalContractIdentifier(w, a.identifier);
      return;
    case 'DeterministicStateInit':
      writeStateInit(w, a);
      w.u128(a.deposit);
      return;
    case 'TransferToGasKey':
      writePublicKey(w, a.publicKey);
      w.u128(a.deposit);
      return;
    case 'WithdrawFromGasKey':
      writePublicKey(w, a.publicKey);
      w.u128(a.amount);
      return;
    case 'DelegateV2':
      writeDelegateActionPayload(w, a.delegateAction);
      writeSignature(w, a.signature);
      return;
  }
}

export function writeGlobalContractIdentifier(w: BorshWriter, id: GlobalContractIdentifier): void {
  if (id.kind === 'CodeHash') w.u8(0).fixed(id.hash);
  else w.u8(1).string(id.accountId);
}

export function readGlobalContractIdentifier(r: BorshReader): GlobalContractIdentifier {
  const k = r.u8();
  if (k === 0) return { kind: 'CodeHash', hash: r.fixed(32).slice() };
  if (k === 1) return { kind: 'AccountId', accountId: readAccountId(r) };
  throw new BorshError(`unknown global contract identifier ${k}`);
}

/** borsh BTreeMap<Vec<u8>, Vec<u8>>: keys must be strictly ascending, as borsh-rs checks. */
function readByteMap(r: BorshReader): [Uint8Array, Uint8Array][] {
  const entries = r.vec((r): [Uint8Array, Uint8Array] => [r.bytes().slice(), r.bytes().slice()]);
  for (let i = 1; i < entries.length; i++) {
    if (compareBytes(entries[i - 1]![0], entries[i]![0]) >= 0)
      throw new BorshError('map keys are not strictly ascending');
  }
  return entries;
}

export function readAction(r: BorshReader, nested = false): Action {
  const tag = r.u8();
  const type = ACTION_TYPES[tag];
  switch (type) {
    case 'CreateAccount':
      return { type };
    case 'DeployContract':
      return { type, code: r.bytes().slice() };
    case 'FunctionCall':
      return { type, methodName: r.string(), args: r.bytes().slice(), gas: r.u64(), deposit: r.u128() };
    case 'Transfer':
      return { type, deposit: r.u128() };
    case 'Stake':
      return { type, stake: r.u128(), publicKey: readPublicKey(r) };
    case 'AddKey':
      return { type, publicKey: readPublicKey(r), accessKey: readAccessKey(r) };
    case 'DeleteKey':
      return { type, publicKey: readPublicKey(r) };
    case 'DeleteAccount':
      return { type, beneficiaryId: readAccountId(r) };
    case 'Delegate':
      if (nested) throw new BorshError("DelegateAction mustn't contain a nested one");
      return { type, delegateAction: readDelegateAction(r), signature: readSignature(r) };
    case 'DeployGlobalContract': {
      const code = r.bytes().slice();
      const mode = r.u8();
      if (mode > 1) throw new BorshError(`unknown global contract deploy mode ${mode}`);
      return { type, code, deployMode: mode as 0 | 1 };
    }
    case 'UseGlobalContract':
      return { type, identifier: readGlobalContractIdentifier(r) };
    case 'DeterministicStateInit': {
      const version = r.u8();
      if (version !== 0) throw new BorshError(`unknown state init version ${version}`);
      const code = readGlobalContractIdentifier(r);
      const data = readByteMap(r);
      return { type, code, data, deposit: r.u128() };
    }
    case 'TransferToGasKey':
      return { type, publicKey: readPublicKey(r), deposit: r.u128() };
    case 'WithdrawFromGasKey':
      return { type, publicKey: readPublicKey(r), amount: r.u128() };
    case 'DelegateV2':
      if (nested) throw new BorshError("DelegateAction mustn't contain a nested one");
      return { type, delegateAction: readDelegateActionPayload(r), signature: readSignature(r) };
    default:
      throw new BorshError(`Unexpected variant tag: ${tag}`);
  }
}

export function writeDelegateAction(w: BorshWriter, d: DelegateAction): void {
  w.string(d.senderId).string(d.receiverId);
  w.vec(d.actions, writeAction);
  w.u64(d.nonce).u64(d.maxBlockHeight);
  writePublicKey(w, d.publicKey);
}

/**
 * nearcore's TransactionNonce, as a TransactionV1 and a DelegateActionV2 carry it: a plain `Nonce`
 * (tag 0), or a gas key's `GasKeyNonce` (tag 1: the nonce, then which of the key's nonces it is).
 */
export function writeTransactionNonce(w: BorshWriter, nonce: bigint, nonceIndex: number | undefined): void {
  w.u8(nonceIndex === undefined ? 0 : 1).u64(nonce);
  if (nonceIndex !== undefined) w.u16(nonceIndex);
}

export function readTransactionNonce(r: BorshReader): { nonce: bigint; nonceIndex?: number } {
  const kind = r.u8();
  if (kind !== 0 && kind !== 1) throw new BorshError(`Unexpected variant tag: ${kind}`);
  const nonce = r.u64();
  return kind === 1 ? { nonce, nonceIndex: r.u16() } : { nonce };
}

/** nearcore's VersionedDelegateActionPayload: the version tag (0, V2), then a DelegateActionV2. */
export function writeDelegateActionPayload(w: BorshWriter, d: DelegateAction): void {
  w.u8(0).string(d.senderId).string(d.receiverId);
  w.vec(d.actions, writeAction);
  writeTransactionNonce(w, d.nonce, d.nonceIndex);
  w.u64(d.maxBlockHeight);
  writePublicKey(w, d.publicKey);
}

function readDelegateActionPayload(r: BorshReader): DelegateAction {
  const version = r.u8();
  if (version !== 0) throw new BorshError(`unknown delegate action version ${version}`);
  const senderId = readAccountId(r);
  const receiverId = readAccountId(r);
  const actions = r.vec((r) => readAction(r, true));
  const nonce = readTransactionNonce(r);
  const maxBlockHeight = r.u64();
  const publicKey = readPublicKey(r);
  return { senderId, receiverId, actions, ...nonce, maxBlockHeight, publicKey };
}

export function readDelegateAction(r: BorshReader): DelegateAction {
  return {
    senderId: readAccountId(r),
    receiverId: readAccountId(r),
    actions: r.vec((r) => readAction(r, true)),
    nonce: r.u64(),
    maxBlockHeight: r.u64(),
    publicKey: readPublicKey(r),
  };
}
