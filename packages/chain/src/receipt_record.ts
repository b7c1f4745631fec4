// The receipts of genesis records (StateRecord::PostponedReceipt, DelayedReceipt) from nearcore's
// serde JSON of Receipt, the form `actionJson` and `receiptJson` write: every field checked as
// nearcore deserializes it, with the path of what is wrong.
import {
  ACTION_TYPES,
  type Action,
  type DelegateAction,
  type GlobalContractIdentifier,
  type PublicKey,
  parsePublicKey,
  parseSignature,
  type Receipt,
  type ReceiptEnum,
  type Signature,
} from '@nearlite/primitives';
import {
  accessKey,
  accountId,
  base64,
  fail,
  hash32,
  type Obj,
  obj,
  parsed,
  str,
  u64,
  u128,
} from './state_record_fields.js';

const key = (o: Obj, k: string, path: string): PublicKey => parsed(o, k, path, parsePublicKey);
const signature = (o: Obj, k: string, path: string): Signature => parsed(o, k, path, parseSignature);

function array(o: Obj, k: string, path: string): unknown[] {
  const v = o[k];
  if (v === undefined) fail(path, `missing field \`${k}\``);
  if (!Array.isArray(v)) fail(`${path}.${k}`, 'expected a sequence');
  return v;
}

/** An externally tagged enum's one variant: its name and its body. */
function variant(v: unknown, path: string, names: readonly string[]): [string, unknown] {
  const o = obj(v, path);
  const keys = Object.keys(o);
  const name = keys[0];
  if (keys.length !== 1 || name === undefined || !names.includes(name))
    fail(path, `expected one of the variants ${names.join(', ')}`);
  return [name, o[name]];
}

function identifier(v: unknown, path: string): GlobalContractIdentifier {
  const [name, body] = variant(v, path, ['hash', 'account_id']);
  if (name === 'hash') return { kind: 'CodeHash', hash: hash32({ hash: body }, 'hash', path) };
  return { kind: 'AccountId', accountId: accountId({ account_id: body }, 'account_id', path) };
}

/** Gas: a number, or a decimal string (NearGas deserializes both). */
function gas(o: Obj, k: string, path: string): bigint {
  const v = o[k];
  if (typeof v === 'string' && /^\d{1,20}$/.test(v) && BigInt(v) < 1n << 64n) return BigInt(v);
  return u64(o, k, path);
}

function u16(o: Obj, k: string, path: string): number {
  const n = u64(o, k, path);
  if (n > 0xffffn) fail(`${path}.${k}`, 'out of range for u16');
  return Number(n);
}

function delegateAction(o: Obj, path: string): Omit<DelegateAction, 'nonce' | 'nonceIndex'> {
  const actions = array(o, 'actions', path).map((a, i) => {
    const action = actionFromJson(a, `${path}.actions[${i}]`);
    if (action.type === 'Delegate' || action.type === 'DelegateV2')
      fail(`${path}.actions[${i}]`, 'a delegate action may not hold another');
    return action;
  });
  return {
    senderId: accountId(o, 'sender_id', path),
    receiverId: accountId(o, 'receiver_id', path),
    actions,
    maxBlockHeight: u64(o, 'max_block_height', path),
    publicKey: key(o, 'public_key', path),
  };
}

/** One Action from its serde JSON. */
export function actionFromJson(v: unknown, path: string): Action {
  const [name, raw] = variant(v, path, ACTION_TYPES);
  const at = `${path}.${name}`;
  const o = obj(raw, at);
  switch (name as (typeof ACTION_TYPES)[number]) {
    case 'CreateAccount':
      return { type: 'CreateAccount' };
    case 'DeployContract':
      return { type: 'DeployContract', code: base64(o, 'code', at) };
    case 'FunctionCall':
      return {
        type: 'FunctionCall',
        methodName: str(o, 'method_name', at),
        args: base64(o, 'args', at),
        gas: gas(o, 'gas', at),
        deposit: u128(o, 'deposit', at),
      };
    case 'Transfer':
      return { type: 'Transfer', deposit: u128(o, 'deposit', at) };
    case 'Stake':
      return { type: 'Stake', stake: u128(o, 'stake', at), publicKey: key(o, 'public_key', at) };
    case 'AddKey':
      return {
        type: 'AddKey',
        publicKey: key(o, 'public_key', at),
        accessKey: accessKey(o.access_key, `${at}.access_key`),
      };
    case 'DeleteKey':
      return { type: 'DeleteKey', publicKey: key(o, 'public_key', at) };
    case 'DeleteAccount':
      return { type: 'DeleteAccount', beneficiaryId: accountId(o, 'beneficiary_id', at) };
    case 'Delegate': {
      const dPath = `${at}.delegate_action`;
      const d = obj(o.delegate_action, dPath);
      return {
        type: 'Delegate',
        delegateAction: { ...delegateAction(d, dPath), nonce: u64(d, 'nonce', dPath) },
        signature: signature(o, 'signature', at),
      };
    }
    case 'DelegateV2': {
      const [, payload] = variant(o.delegate_action, `${at}.delegate_action`, ['V2']);
      const dPath = `${at}.delegate_action.V2`;
      const d = obj(payload, dPath);
      const [kind, n] = variant(d.nonce, `${dPath}.nonce`, ['Nonce', 'GasKeyNonce']);
      const nPath = `${dPath}.nonce.${kind}`;
      const nonce = obj(n, nPath);
      return {
        type: 'DelegateV2',
        delegateAction: {
          ...delegateAction(d, dPath),
          nonce: u64(nonce, 'nonce', nPath),
          ...(kind === 'GasKeyNonce' ? { nonceIndex: u16(nonce, 'nonce_index', nPath) } : {}),
        },
        signature: signature(o, 'signature', at),
      };
    }
    case 'DeployGlobalContract': {
      const mode = str(o, 'deploy_mode', at);
      if (mode !== 'CodeHash' && mode !== 'AccountId')
        fail(`${at}.deploy_mode`, 'expected `CodeHash` or `AccountId`');
      return {
        type: 'DeployGlobalContract',
        code: base64(o, 'code', at),
        deployMode: mode === 'CodeHash' ? 0 : 1,
      };
    }
    case 'UseGlobalContract':
      return {
        type: 'UseGlobalContract',
        identifier: identifier(o.contract_identifier, `${at}.contract_identifier`),
      };
    case 'DeterministicStateInit': {
      const [, init] = variant(o.state_init, `${at}.state_init`, ['V1']);
      const iPath = `${at}.state_init.V1`;
      const i = obj(init, iPath);
      const data = obj(i.data, `${iPath}.data`);
      const entries = Object.keys(data).map((k): [Uint8Array, Uint8Array] => [
        base64({ key: k }, 'key', `${iPath}.data`),
        base64(data, k, `${iPath}.data`),
      ]);
      // A BTreeMap: its keys ascending by their bytes.
      entries.sort(([a], [b]) => Buffer.compare(a, b));
      return {
        type: 'DeterministicStateInit',
        code: identifier(i.code, `${iPath}.code`),
        data: entries,
        deposit: u128(o, 'deposit', at),
      };
    }
    case 'TransferToGasKey':
      return {
        type: 'TransferToGasKey',
        publicKey: key(o, 'public_key', at),
        deposit: u128(o, 'deposit', at),
      };
    case 'WithdrawFromGasKey':
      return {
        type: 'WithdrawFromGasKey',
        publicKey: key(o, 'public_key', at),
        amount: u128(o, 'amount', at),
      };
  }
}

const RECEIPTS = [
  'Action',
  'Data',
  'PromiseYield',
  'PromiseResume',
  'GlobalContractDistribution',
  'ActionV2',
  'PromiseYieldV2',
] as const;

function hashes(o: Obj, k: string, path: string): Uint8Array[] {
  return array(o, k, path).map((h, i) => hash32({ h }, 'h', `${path}.${k}[${i}]`));
}

function receiptEnum(v: unknown, path: string): ReceiptEnum {
  const [name, raw] = variant(v, path, RECEIPTS);
  const at = `${path}.${name}`;
  const o = obj(raw, at);
  switch (name as (typeof RECEIPTS)[number]) {
    case 'Data':
    case 'PromiseResume': {
      const data = o.data === null || o.data === undefined ? null : base64(o, 'data', at);
      return {
        kind: 'Data',
        dataId: hash32(o, 'data_id', at),
        data,
        ...(name === 'PromiseResume' ? { isPromiseResume: true as const } : {}),
      };
    }
    case 'GlobalContractDistribution': {
      const [version, body] = variant(o, at, ['V1', 'V2']);
      const bPath = `${at}.${version}`;
      const b = obj(body, bPath);
      return {
        kind: 'GlobalContractDistribution',
        id: identifier(b.id, `${bPath}.id`),
        targetShard: u64(b, 'target_shard', bPath),
        alreadyDeliveredShards: array(b, 'already_delivered_shards', bPath).map((s, i) =>
          u64({ s }, 's', `${bPath}.already_delivered_shards[${i}]`),
        ),
        code: base64(b, 'code', bPath),
        ...(version === 'V2' ? { nonce: u64(b, 'nonce', bPath) } : {}),
      };
    }
    default: {
      const v2 = name === 'ActionV2' || name === 'PromiseYieldV2';
      const yielded = name === 'PromiseYield' || name === 'PromiseYieldV2';
      const refundTo = v2
        ? o.refund_to === null || o.refund_to === undefined
          ? null
          : accountId(o, 'refund_to', at)
        : undefined;
      return {
        kind: 'Action',
        signerId: accountId(o, 'signer_id', at),
        signerPublicKey: key(o, 'signer_public_key', at),
        gasPrice: u128(o, 'gas_price', at),
        outputDataReceivers: array(o, 'output_data_receivers', at).map((d, i) => {
          const dPath = `${at}.output_data_receivers[${i}]`;
          const r = obj(d, dPath);
          return { dataId: hash32(r, 'data_id', dPath), receiverId: accountId(r, 'receiver_id', dPath) };
        }),
        inputDataIds: hashes(o, 'input_data_ids', at),
        actions: array(o, 'actions', at).map((a, i) => actionFromJson(a, `${at}.actions[${i}]`)),
        ...(yielded ? { isPromiseYield: true as const } : {}),
        ...(refundTo !== undefined ? { refundTo } : {}),
      };
    }
  }
}

/** A Receipt (ReceiptV0) from its serde JSON. */
export function receiptFromJson(v: unknown, path: string): Receipt {
  const o = obj(v, path);
  return {
    predecessorId: accountId(o, 'predecessor_id', path),
    receiverId: accountId(o, 'receiver_id', path),
    receiptId: hash32(o, 'receipt_id', path),
    receipt: receiptEnum(o.receipt, `${path}.receipt`),
  };
}
