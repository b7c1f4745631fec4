// nearcore's serde JSON of actions and receipts: the form they take in genesis records
// (StateRecord::PostponedReceipt, DelayedReceipt) and inside a delegate action, which is not the
// RPC's view of them (views.ts). Every struct is an object of its fields in declaration order, every
// enum externally tagged, Balance a decimal string, Gas and u64 a number, bytes base64.
import { type AccessKey, accessKeyView } from '../account.js';
import { base58Encode } from '../base58.js';
import { toBase64 } from '../hash.js';
import { u64View } from '../json.js';
import { formatPublicKey, formatSignature } from '../public_key.js';
import type { Action, DelegateAction, GlobalContractIdentifier } from './action.js';
import type { ActionReceipt, Receipt } from './receipt.js';

/**
 * An AccessKey as nearcore serializes it: its view but for a gas key's function-call permission,
 * a tuple variant (`{"GasKeyFunctionCall": [{balance, num_nonces}, {allowance, receiver_id,
 * method_names}]}`) where the view flattens the two into one object.
 */
export function accessKeyJson(k: AccessKey): object {
  const view = accessKeyView(k);
  const p = k.permission;
  if (p.kind !== 'FunctionCall' || !p.gasKey) return view;
  return {
    nonce: view.nonce,
    permission: {
      GasKeyFunctionCall: [
        { balance: p.gasKey.balance.toString(), num_nonces: p.gasKey.numNonces },
        {
          allowance: p.allowance === null ? null : p.allowance.toString(),
          receiver_id: p.receiverId,
          method_names: p.methodNames,
        },
      ],
    },
  };
}

/** GlobalContractIdentifier: `{"hash": …}` or `{"account_id": …}` (its serde renames, as its view). */
export function globalContractIdentifierJson(id: GlobalContractIdentifier): object {
  return id.kind === 'CodeHash' ? { hash: base58Encode(id.hash) } : { account_id: id.accountId };
}

function delegateActionJson(d: DelegateAction, nonce: unknown): object {
  return {
    sender_id: d.senderId,
    receiver_id: d.receiverId,
    actions: d.actions.map(actionJson),
    nonce,
    max_block_height: u64View(d.maxBlockHeight),
    public_key: formatPublicKey(d.publicKey),
  };
}

/** An Action as nearcore serializes the Action itself (not its ActionView). */
export function actionJson(a: Action): object {
  switch (a.type) {
    case 'CreateAccount':
      return { CreateAccount: {} };
    case 'DeployContract':
      return { DeployContract: { code: toBase64(a.code) } };
    case 'FunctionCall':
      return {
        FunctionCall: {
          method_name: a.methodName,
          args: toBase64(a.args),
          gas: u64View(a.gas),
          deposit: a.deposit.toString(),
        },
      };
    case 'Transfer':
      return { Transfer: { deposit: a.deposit.toString() } };
    case 'Stake':
      return { Stake: { stake: a.stake.toString(), public_key: formatPublicKey(a.publicKey) } };
    case 'AddKey':
      return { AddKey: { public_key: formatPublicKey(a.publicKey), access_key: accessKeyJson(a.accessKey) } };
    case 'DeleteKey':
      return { DeleteKey: { public_key: formatPublicKey(a.publicKey) } };
    case 'DeleteAccount':
      return { DeleteAccount: { beneficiary_id: a.beneficiaryId } };
    case 'Delegate':
      return {
        Delegate: {
          delegate_action: delegateActionJson(a.delegateAction, u64View(a.delegateAction.nonce)),
          signature: formatSignature(a.signature),
        },
      };
    case 'DelegateV2': {
      const d = a.delegateAction;
      const nonce =
        d.nonceIndex === undefined
          ? { Nonce: { nonce: u64View(d.nonce) } }
          : { GasKeyNonce: { nonce: u64View(d.nonce), nonce_index: d.nonceIndex } };
      return {
        DelegateV2: {
          delegate_action: { V2: delegateActionJson(d, nonce) },
          signature: formatSignature(a.signature),
        },
      };
    }
    case 'DeployGlobalContract':
      return {
        DeployGlobalContract: {
          code: toBase64(a.code),
          deploy_mode: a.deployMode === 0 ? 'CodeHash' : 'AccountId',
        },
      };
    case 'UseGlobalContract':
      return { UseGlobalContract: { contract_identifier: globalContractIdentifierJson(a.identifier) } };
    case 'DeterministicStateInit':
      return {
        DeterministicStateInit: {
          state_init: {
            V1: {
              code: globalContractIdentifierJson(a.code),
              data: Object.fromEntries(a.data.map(([k, v]) => [toBase64(k), toBase64(v)])),
            },
          },
          deposit: a.deposit.toString(),
        },
      };
    case 'TransferToGasKey':
      return {
        TransferToGasKey: { public_key: formatPublicKey(a.publicKey), deposit: a.deposit.toString() },
      };
    case 'WithdrawFromGasKey':
      return {
        WithdrawFromGasKey: { public_key: formatPublicKey(a.publicKey), amount: a.amount.toString() },
      };
  }
}

/**
 * An action receipt's fields from its signer's key to its inputs, alike in its serde form and its
 * view (which differ before and after them).
 */
export function actionReceiptFields(x: ActionReceipt): object {
  return {
    signer_public_key: formatPublicKey(x.signerPublicKey),
    gas_price: x.gasPrice.toString(),
    output_data_receivers: x.outputDataReceivers.map((d) => ({
      data_id: base58Encode(d.dataId),
      receiver_id: d.receiverId,
    })),
    input_data_ids: x.inputDataIds.map((d) => base58Encode(d)),
  };
}

/**
 * A Receipt as nearcore serializes it (ReceiptV0, `Receipt` being untagged): the ReceiptEnum
 * variant by its name (`Action`, `PromiseYield`, `ActionV2`, `PromiseYieldV2`, `Data`,
 * `PromiseResume`, `GlobalContractDistribution` with its own `V1`/`V2`).
 */
export function receiptJson(r: Receipt): object {
  const x = r.receipt;
  let receipt: object;
  if (x.kind === 'Action') {
    const v2 = x.refundTo !== undefined;
    const name = x.isPromiseYield ? (v2 ? 'PromiseYieldV2' : 'PromiseYield') : v2 ? 'ActionV2' : 'Action';
    receipt = {
      [name]: {
        signer_id: x.signerId,
        ...(v2 ? { refund_to: x.refundTo ?? null } : {}),
        ...actionReceiptFields(x),
        actions: x.actions.map(actionJson),
      },
    };
  } else if (x.kind === 'Data') {
    receipt = {
      [x.isPromiseResume ? 'PromiseResume' : 'Data']: {
        data_id: base58Encode(x.dataId),
        data: x.data ? toBase64(x.data) : null,
      },
    };
  } else {
    const body = {
      id: globalContractIdentifierJson(x.id),
      target_shard: u64View(x.targetShard),
      already_delivered_shards: x.alreadyDeliveredShards.map(u64View),
      code: toBase64(x.code),
    };
    receipt = {
      GlobalContractDistribution:
        x.nonce === undefined ? { V1: body } : { V2: { ...body, nonce: u64View(x.nonce) } },
    };
  }
  return {
    predecessor_id: r.predecessorId,
    receiver_id: r.receiverId,
    receipt_id: base58Encode(r.receiptId),
    receipt,
  };
}
