// JSON views of transactions, actions and receipts in nearcore's shapes (core/primitives/src/views.rs).
import { accessKeyView } from '../account.js';
import { base58Encode } from '../base58.js';
import { sha256, toBase64 } from '../hash.js';
import { u64View } from '../json.js';
import { formatPublicKey, formatSignature } from '../public_key.js';
import type { Action, DelegateAction } from './action.js';
import type { Receipt } from './receipt.js';
import type { SignedTransaction } from './transaction.js';

function delegateActionView(d: DelegateAction): object {
  return {
    sender_id: d.senderId,
    receiver_id: d.receiverId,
    // Inside a delegate action nearcore shows full code and args (NonDelegateAction → Action).
    actions: d.actions.map((a) => actionView(a, true)),
    nonce: u64View(d.nonce),
    max_block_height: u64View(d.maxBlockHeight),
    public_key: formatPublicKey(d.publicKey),
  };
}

/** ActionView: DeployContract shows base64 of sha256(code), not the code. */
export function actionView(a: Action, fullCode = false): object | string {
  switch (a.type) {
    case 'CreateAccount':
      return 'CreateAccount';
    case 'DeployContract':
      return { DeployContract: { code: toBase64(fullCode ? a.code : sha256(a.code)) } };
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
      return { AddKey: { public_key: formatPublicKey(a.publicKey), access_key: accessKeyView(a.accessKey) } };
    case 'DeleteKey':
      return { DeleteKey: { public_key: formatPublicKey(a.publicKey) } };
    case 'DeleteAccount':
      return { DeleteAccount: { beneficiary_id: a.beneficiaryId } };
    case 'Delegate':
      return {
        Delegate: {
          delegate_action: delegateActionView(a.delegateAction),
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
          delegate_action: { V2: { ...delegateActionView(d), nonce } },
          signature: formatSignature(a.signature),
        },
      };
    }
    case 'DeployGlobalContract':
      // Inside a delegate action nearcore serializes the Action itself: full code and the mode.
      if (fullCode)
        return {
          DeployGlobalContract: {
            code: toBase64(a.code),
            deploy_mode: a.deployMode === 0 ? 'CodeHash' : 'AccountId',
          },
        };
      return a.deployMode === 0
        ? { DeployGlobalContract: { code: toBase64(sha256(a.code)) } }
        : { DeployGlobalContractByAccountId: { code: toBase64(sha256(a.code)) } };
    case 'UseGlobalContract':
      if (fullCode) {
        const id = a.identifier;
        return {
          UseGlobalContract: {
            contract_identifier:
              id.kind === 'CodeHash' ? { CodeHash: base58Encode(id.hash) } : { AccountId: id.accountId },
          },
        };
      }
      return a.identifier.kind === 'CodeHash'
        ? { UseGlobalContract: { code_hash: base58Encode(a.identifier.hash) } }
        : { UseGlobalContractByAccountId: { account_id: a.identifier.accountId } };
    case 'DeterministicStateInit':
      return {
        DeterministicStateInit: {
          code:
            a.code.kind === 'CodeHash'
              ? { hash: base58Encode(a.code.hash) }
              : { account_id: a.code.accountId },
          data: Object.fromEntries(a.data.map(([k, v]) => [toBase64(k), toBase64(v)])),
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

export function signedTransactionView(t: SignedTransaction): object {
  const tx = t.transaction;
  return {
    signer_id: tx.signerId,
    public_key: formatPublicKey(tx.publicKey),
    nonce: u64View(tx.nonce),
    receiver_id: tx.receiverId,
    actions: tx.actions.map((a) => actionView(a)),
    priority_fee: 0,
    signature: formatSignature(t.signature),
    hash: base58Encode(t.hash),
    // nearcore names the index of a gas key's nonce, and the mode only when it is not the default.
    ...(tx.nonceIndex !== undefined ? { nonce_index: tx.nonceIndex } : {}),
    ...(tx.nonceMode === 'Strict' ? { nonce_mode: 'strict' } : {}),
  };
}

export function receiptView(r: Receipt): object {
  const x = r.receipt;
  let receipt: object;
  if (x.kind === 'Action') {
    receipt = {
      Action: {
        signer_id: x.signerId,
        signer_public_key: formatPublicKey(x.signerPublicKey),
        gas_price: x.gasPrice.toString(),
        output_data_receivers: x.outputDataReceivers.map((d) => ({
          data_id: base58Encode(d.dataId),
          receiver_id: d.receiverId,
        })),
        input_data_ids: x.inputDataIds.map((d) => base58Encode(d)),
        actions: x.actions.map((a) => actionView(a)),
        is_promise_yield: x.isPromiseYield === true,
        ...(typeof x.refundTo === 'string' ? { refund_to: x.refundTo } : {}),
      },
    };
  } else if (x.kind === 'Data') {
    receipt = {
      Data: {
        data_id: base58Encode(x.dataId),
        data: x.data ? toBase64(x.data) : null,
        is_promise_resume: x.isPromiseResume === true,
      },
    };
  } else {
    receipt = {
      GlobalContractDistribution: {
        id: x.id.kind === 'CodeHash' ? { CodeHash: base58Encode(x.id.hash) } : { AccountId: x.id.accountId },
        target_shard: x.targetShard,
        already_delivered_shards: x.alreadyDeliveredShards,
        code: toBase64(x.code),
        ...(x.nonce === undefined ? {} : { nonce: u64View(x.nonce) }),
      },
    };
  }
  return {
    predecessor_id: r.predecessorId,
    receiver_id: r.receiverId,
    receipt_id: base58Encode(r.receiptId),
    receipt,
    priority: u64View(r.priority ?? 0n),
  };
}
