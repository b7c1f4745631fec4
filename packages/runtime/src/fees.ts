// nearcore's fee arithmetic (runtime/runtime/src/config.rs): send fees are paid when a transaction or
// receipt is created, exec fees when its receipt runs; "sir" = the sender is the receiver.
import {
  type Action,
  BorshWriter,
  type GlobalContractIdentifier,
  isDelegate,
  KeyType,
  type PublicKey,
  publicKeyTrieIdLength,
  type Receipt,
  SYSTEM_ACCOUNT,
  stateInitDataBytes,
  utf8,
  writeAccessKey,
} from '@nearlite/primitives';
import {
  type Fee,
  type GasKeyFee,
  gasKeyAddKeyFee,
  gasKeyTransferFee,
  sendFee,
  transferFeeParts,
} from '@nearlite/vm';
import type { RuntimeConfig } from './config/runtime_config.js';

/**
 * nearcore's GlobalContractIdentifier::len: 32 for a code hash, the id's bytes for an account. Both
 * the use fee and the storage a using account pays for its reference count these bytes.
 */
export function globalContractIdentifierLen(id: GlobalContractIdentifier): bigint {
  return id.kind === 'CodeHash' ? 32n : BigInt(utf8(id.accountId).length);
}

function accessKeyLen(a: Extract<Action, { type: 'AddKey' }>): bigint {
  const w = new BorshWriter(64);
  writeAccessKey(w, a.accessKey);
  return BigInt(w.length);
}

/** A gas-key fee of the runtime's: the key priced by its trie id, its parts added. */
function gasKeyFeeTotal(g: GasKeyFee): bigint {
  return g.base + g.perByte;
}

function keyFees(
  c: RuntimeConfig,
  a: Extract<Action, { type: 'AddKey' }>,
): { base: Fee; perByte: Fee | null; bytes: bigint } {
  const f = c.fees.fees;
  if (a.accessKey.permission.kind === 'FullAccess')
    return { base: f.add_full_access_key, perByte: null, bytes: 0n };
  const names = a.accessKey.permission.methodNames;
  const bytes = BigInt(names.reduce((s, m) => s + Buffer.byteLength(m) + 1, 0));
  return { base: f.add_function_call_key_base, perByte: f.add_function_call_key_byte, bytes };
}

function perAction(
  c: RuntimeConfig,
  a: Action,
  receiverId: string,
  pick: (f: Fee) => bigint,
  exec: boolean,
): bigint {
  const f = c.fees.fees;
  switch (a.type) {
    case 'CreateAccount':
      return pick(f.create_account);
    case 'DeployContract':
      return pick(f.deploy_contract_base) + pick(f.deploy_contract_byte) * BigInt(a.code.length);
    case 'DeployGlobalContract':
      return (
        pick(f.deploy_global_contract_base) + pick(f.deploy_global_contract_byte) * BigInt(a.code.length)
      );
    case 'UseGlobalContract':
      return (
        pick(f.use_global_contract_base) +
        pick(f.use_global_contract_byte) * globalContractIdentifierLen(a.identifier)
      );
    case 'FunctionCall':
      return (
        pick(f.function_call_base) +
        pick(f.function_call_byte) * BigInt(Buffer.byteLength(a.methodName) + a.args.length)
      );
    case 'Transfer': {
      let fee = 0n;
      const w = c.wasm;
      for (const part of transferFeeParts(
        c.fees,
        w.implicit_account_creation,
        w.eth_implicit_accounts,
        receiverId,
      ))
        fee += pick(part);
      return fee;
    }
    case 'Stake':
      return pick(f.stake);
    case 'AddKey': {
      const k = keyFees(c, a);
      const g = a.accessKey.permission.gasKey;
      const trieId = BigInt(publicKeyTrieIdLength(a.publicKey));
      return (
        pick(k.base) +
        (k.perByte ? pick(k.perByte) * k.bytes : 0n) +
        (g
          ? gasKeyFeeTotal(gasKeyAddKeyFee(c.fees, pick, exec, receiverId, trieId, BigInt(g.numNonces)))
          : 0n)
      );
    }
    case 'TransferToGasKey':
    case 'WithdrawFromGasKey':
      return gasKeyFeeTotal(
        gasKeyTransferFee(c.fees, pick, exec, receiverId, BigInt(publicKeyTrieIdLength(a.publicKey))),
      );
    case 'DeleteKey':
      return pick(f.delete_key);
    case 'DeleteAccount':
      return pick(f.delete_account);
    case 'Delegate':
    case 'DelegateV2':
      return pick(f.delegate);
    case 'DeterministicStateInit':
      return (
        pick(f.deterministic_state_init_base) +
        pick(f.deterministic_state_init_entry) * BigInt(a.data.length) +
        pick(f.deterministic_state_init_byte) * stateInitDataBytes(a)
      );
  }
}

export function totalSendFees(
  c: RuntimeConfig,
  sir: boolean,
  actions: readonly Action[],
  receiverId: string,
): bigint {
  let sum = 0n;
  for (const a of actions) {
    sum += perAction(c, a, receiverId, (f) => sendFee(f, sir), false);
    // nearcore prices the inner actions with the outer sender-is-receiver flag.
    if (isDelegate(a)) sum += totalSendFees(c, sir, a.delegateAction.actions, a.delegateAction.receiverId);
  }
  return sum;
}

/** Send fees of a Delegate's inner actions, bought with the outer receipt and burnt when it runs. */
export function totalPrepaidSendFees(c: RuntimeConfig, actions: readonly Action[]): bigint {
  let sum = 0n;
  for (const a of actions) {
    if (!isDelegate(a)) continue;
    const d = a.delegateAction;
    sum += totalSendFees(c, d.senderId === d.receiverId, d.actions, d.receiverId);
  }
  return sum;
}

/** Exec fees prepaid at send time (for a Delegate: its inner actions and their receipt). */
export function totalPrepaidExecFees(
  c: RuntimeConfig,
  actions: readonly Action[],
  receiverId: string,
): bigint {
  let sum = 0n;
  for (const a of actions) {
    if (isDelegate(a)) {
      const d = a.delegateAction;
      sum +=
        c.fees.fees.delegate.execution +
        c.fees.fees.new_action_receipt.execution +
        totalPrepaidExecFees(c, d.actions, d.receiverId);
    } else sum += perAction(c, a, receiverId, (f) => f.execution, true);
  }
  return sum;
}

/** The exec fee of one action when its receipt runs. */
export function execFee(c: RuntimeConfig, a: Action, receiverId: string): bigint {
  if (isDelegate(a)) return c.fees.fees.delegate.execution;
  return perAction(c, a, receiverId, (f) => f.execution, true);
}

/**
 * The compute an action's execution takes (nearcore's exec_fee compute): its execution gas, but for
 * a DeployContract, whose compute costs are their own.
 */
export function execCompute(c: RuntimeConfig, a: Action, receiverId: string): bigint {
  if (a.type !== 'DeployContract') return execFee(c, a, receiverId);
  return c.compute.deployContractBase + c.compute.deployContractByte * BigInt(a.code.length);
}

export function totalPrepaidGas(actions: readonly Action[]): bigint {
  let sum = 0n;
  for (const a of actions) {
    if (a.type === 'FunctionCall') sum += a.gas;
    else if (isDelegate(a)) sum += totalPrepaidGas(a.delegateAction.actions);
  }
  return sum;
}

/** Deposits the signer pays for, a Delegate's inner deposits included (the relayer pays them). */
export function totalDeposit(actions: readonly Action[]): bigint {
  let sum = 0n;
  for (const a of actions) {
    if (
      a.type === 'Transfer' ||
      a.type === 'FunctionCall' ||
      a.type === 'DeterministicStateInit' ||
      a.type === 'TransferToGasKey'
    )
      sum += a.deposit;
    else if (isDelegate(a)) sum += totalDeposit(a.delegateAction.actions);
  }
  return sum;
}

/**
 * nearcore's balance_checker receipt_cost: the balance a receipt carries while no account holds it,
 * its deposits and, unless `system` sent it, the gas bought for it at its price. Data, resume and
 * distribution receipts carry none.
 */
export function receiptCost(c: RuntimeConfig, r: Receipt): bigint {
  const x = r.receipt;
  if (x.kind !== 'Action') return 0n;
  const deposit = totalDeposit(x.actions);
  if (r.predecessorId === SYSTEM_ACCOUNT) return deposit;
  const gas =
    c.fees.fees.new_action_receipt.execution +
    totalPrepaidExecFees(c, x.actions, r.receiverId) +
    totalPrepaidGas(x.actions) +
    totalPrepaidSendFees(c, x.actions);
  return deposit + gas * x.gasPrice;
}

export interface TransactionCost {
  readonly gasBurnt: bigint;
  readonly gasRemaining: bigint;
  readonly receiptGasPrice: bigint;
  readonly totalCost: bigint;
  /** The deposits within totalCost (nearcore's deposit_cost): what a gas key's account pays. */
  readonly depositCost: bigint;
  readonly burntAmount: bigint;
}

const minGas = (a: bigint, b: bigint): bigint => (b < a ? b : a);

/**
 * nearcore's signature_verification_cost: the signer's signature and each Delegate's inner one,
 * priced by scheme. It is burnt when the transaction converts, so it raises what the signer buys
 * but never the gas the receipts get.
 */
function signatureVerificationCost(
  c: RuntimeConfig,
  signerKeyType: KeyType,
  actions: readonly Action[],
): bigint {
  const of = (t: KeyType): bigint => (t === KeyType.MLDSA65 ? c.mlDsa65VerificationCost : 0n);
  let total = of(signerKeyType);
  for (const a of actions) if (isDelegate(a)) total += of(a.delegateAction.publicKey.keyType);
  return total;
}

/** nearcore's tx_cost. */
export function txCost(
  c: RuntimeConfig,
  signerId: string,
  signerKeyType: KeyType,
  receiverId: string,
  actions: readonly Action[],
  gasPrice: bigint,
): TransactionCost {
  const f = c.fees.fees;
  const sir = signerId === receiverId;
  const gasBurnt =
    sendFee(f.new_action_receipt, sir) +
    totalSendFees(c, sir, actions, receiverId) +
    signatureVerificationCost(c, signerKeyType, actions);
  const prepaidGas = totalPrepaidGas(actions) + totalPrepaidSendFees(c, actions);
  const [num, den] = c.pessimisticGasPriceInflation;
  let receiptGasPrice = gasPrice;
  if (num !== den && gasPrice > 0n) {
    const minReceipt =
      minGas(f.new_action_receipt.send_sir, f.new_action_receipt.send_not_sir) +
      f.new_action_receipt.execution +
      f.function_call_base.send_sir +
      f.function_call_base.execution;
    const depth = (sir ? 0n : 1n) + (minReceipt > 0n ? prepaidGas / minReceipt : 0n);
    const exp = depth > 255n ? 255n : depth;
    receiptGasPrice = (gasPrice * num ** exp + den ** exp - 1n) / den ** exp;
  }
  // NEP-536 (AccountCostIncrease): the receipt's gas is bought at no less than the floor; what is
  // not burnt at that price comes back to the signer in the gas refund.
  if (receiptGasPrice < c.minGasPurchasePrice) receiptGasPrice = c.minGasPurchasePrice;
  const gasRemaining =
    prepaidGas + f.new_action_receipt.execution + totalPrepaidExecFees(c, actions, receiverId);
  const burntAmount = gasBurnt * gasPrice;
  const depositCost = totalDeposit(actions);
  const totalCost = burntAmount + gasRemaining * receiptGasPrice + depositCost;
  return { gasBurnt, gasRemaining, receiptGasPrice, totalCost, burntAmount, depositCost };
}

/**
 * What a gas key's nonces add to that: per nonce, its trie id, the u16 index, the u64 value and the
 * record overhead (nearcore's gas_key_storage_cost leaves the account id out of the nonce's key).
 */
export function gasKeyNoncesStorage(c: RuntimeConfig, pk: PublicKey, numNonces: number): bigint {
  return (
    BigInt(numNonces) *
    (BigInt(publicKeyTrieIdLength(pk)) + 2n + 8n + c.fees.storage_usage_config.num_extra_bytes_record)
  );
}

/**
 * Storage a new access key takes: the record overhead, the key as the trie stores it (an ML-DSA-65
 * key by its 33-byte handle) and the borsh value.
 */
export function accessKeyStorage(c: RuntimeConfig, a: Extract<Action, { type: 'AddKey' }>): bigint {
  return (
    c.fees.storage_usage_config.num_extra_bytes_record +
    BigInt(publicKeyTrieIdLength(a.publicKey)) +
    accessKeyLen(a)
  );
}
