// JSON views of transactions, actions and receipts in nearcore's shapes (core/primitives/src/views.rs).
import { accessKeyView } from '../account.js';
import { base58Encode } from '../base58.js';
import { sha256, toBase64 } from '../hash.js';
import { u64View } from '../json.js';
import { formatPublicKey, formatSignature } from '../public_key.js';
import type { Action } from './action.js';
import type { Receipt } from './receipt.js';
import { actionJson, actionReceiptFields, globalContractIdentifierJson } from './serde_json.js';
import type { SignedTransaction } from './transaction.js';

/**
 * ActionView: DeployContract and the global-contract actions show the code's hash, not the code, and
 * a few variants take other shapes; the rest is the action as nearcore serializes it (a delegate
 * action's view holds the signed delegate action whole).
 */
export function actionView(a: Action): object | string {
  switch (a.type) {
    case 'CreateAccount':
      return 'CreateAccount';
    case 'DeployContract':
      return { DeployContract: { code: toBase64(sha256(a.code)) } };
    case 'AddKey':
      return { AddKey: { public_key: formatPublicKey(a.publicKey), access_key: accessKeyView(a.accessKey) } };
    case 'DeployGlobalContract':
      return a.deployMode === 0
        ? { DeployGlobalContract: { code: toBase64(sha256(a.code)) } }
        : { DeployGlobalContractByAccountId: { code: toBase64(sha256(a.code)) } };
    case 'UseGlobalContract':
      return a.identifier.kind === 'CodeHash'
        ? { UseGlobalContract: { code_hash: base58Encode(a.identifier.hash) } }
        : { UseGlobalContractByAccountId: { account_id: a.identifier.accountId } };
    case 'DeterministicStateInit':
      return {
        DeterministicStateInit: {
          code: globalContractIdentifierJson(a.code),
          data: Object.fromEntries(a.data.map(([k, v]) => [toBase64(k), toBase64(v)])),
          deposit: a.deposit.toString(),
        },
      };
    default:
      return actionJson(a);
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
        ...actionReceiptFields(x),
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
        id: globalContractIdentifierJson(x.id),
        target_shard: x.targetShard,
        already_delivered_shards: x.alreadyDeliveredShards,
        // The view names the code by its hash, as an action's view does.
        code: toBase64(sha256(x.code)),
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
