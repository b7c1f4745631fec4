// Transaction checks in nearcore's order (runtime/runtime/src/verifier.rs): actions, size, signature,
// then signer, access key, nonce, balance, allowance, storage stake, key permissions. With `charge`
// the signer pays and the key's nonce (and allowance) move, as when a chunk applies it. Expiry and
// chain checks need block headers, so the chain does them before calling this.
import {
  type AccessKey,
  type AccessKeyPermission,
  type Account,
  type Action,
  accountIdError,
  binaryKey,
  deriveDeterministicAccountId,
  formatPublicKey,
  isDelegate,
  isValidStakingKey,
  MAX_NONCES_FOR_GAS_KEY,
  type SignedTransaction,
  type StateInit,
  sha256,
  type Transaction,
  U64_MAX,
  U128_MAX,
  verifySignature,
} from '@nearlite/primitives';
import type { TrieUpdate } from '@nearlite/trie';
import type { RuntimeConfig } from './config/runtime_config.js';
import { type InvalidTxError, invalidTx } from './errors.js';
import { type TransactionCost, totalPrepaidGas, txCost } from './fees.js';
import {
  getAccessKey,
  getAccount,
  getGasKeyNonce,
  setAccessKey,
  setAccount,
  setGasKeyBalance,
  setGasKeyNonce,
  storageShortfall,
} from './state.js';

export type VerifyResult =
  | { readonly ok: true; readonly cost: TransactionCost }
  | { readonly ok: false; readonly error: InvalidTxError };

/** nearcore's validate_action for one action addressed to `receiverId` (action_validation.rs). */
function validateAction(c: RuntimeConfig, a: Action, receiverId: string): unknown | null {
  switch (a.type) {
    case 'FunctionCall': {
      if (a.gas === 0n) return 'FunctionCallZeroAttachedGas';
      const length = Buffer.byteLength(a.methodName);
      if (length > c.maxLengthMethodName)
        return { FunctionCallMethodNameLengthExceeded: { length, limit: c.maxLengthMethodName } };
      if (a.args.length > c.maxArgumentsLength)
        return {
          FunctionCallArgumentsLengthExceeded: { length: a.args.length, limit: c.maxArgumentsLength },
        };
      return null;
    }
    case 'DeployContract':
    case 'DeployGlobalContract':
      return a.code.length > c.maxContractSize
        ? { ContractSizeExceeded: { size: a.code.length, limit: c.maxContractSize } }
        : null;
    case 'AddKey': {
      const p = a.accessKey.permission;
      if (p.kind !== 'FunctionCall') return validateGasKey(a.accessKey.permission);
      if (accountIdError(p.receiverId) !== null)
        return { InvalidAccountId: { account_id: truncateUtf8(p.receiverId, 2 * MAX_ACCOUNT_ID_LEN) } };
      let total = 0;
      for (const m of p.methodNames) {
        const length = Buffer.byteLength(m);
        if (length > c.maxLengthMethodName)
          return { AddKeyMethodNameLengthExceeded: { length, limit: c.maxLengthMethodName } };
        total += length + 1; // nearcore counts a terminator per name
      }
      return total > c.maxNumberBytesMethodNames
        ? {
            AddKeyMethodNamesNumberOfBytesExceeded: {
              total_number_of_bytes: total,
              limit: c.maxNumberBytesMethodNames,
            },
          }
        : validateGasKey(p);
    }
    case 'Stake':
      return isValidStakingKey(a.publicKey)
        ? null
        : { UnsuitableStakingKey: { public_key: formatPublicKey(a.publicKey) } };
    case 'Delegate':
    case 'DelegateV2':
      // FixDelegatedDeterministicStateInit (85): inner actions are addressed to the delegate's receiver.
      return validateActions(c, a.delegateAction.actions, a.delegateAction.receiverId);
    case 'DeterministicStateInit':
      return validateStateInit(c, a, receiverId);
    default:
      return null;
  }
}

// AccountId::MAX_LEN. A function-call key's receiver was never parsed as an account id, so an
// invalid one can be arbitrarily long; the error carries at most twice this many bytes.
const MAX_ACCOUNT_ID_LEN = 64;

/** nearcore's truncate_string: the longest prefix of at most `limit` UTF-8 bytes ending on a char boundary. */
function truncateUtf8(s: string, limit: number): string {
  const bytes = Buffer.from(s, 'utf8');
  if (bytes.length <= limit) return s;
  let end = limit;
  // A continuation byte (10xxxxxx) would split a character.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** The rules validate_add_key_action adds for a gas key: no allowance, 1–1024 nonces, no balance yet. */
function validateGasKey(p: AccessKeyPermission): unknown | null {
  const g = p.gasKey;
  if (!g) return null;
  if (p.kind === 'FunctionCall' && p.allowance !== null) return 'GasKeyFunctionCallAllowanceNotAllowed';
  if (g.numNonces === 0 || g.numNonces > MAX_NONCES_FOR_GAS_KEY)
    return { GasKeyInvalidNumNonces: { requested_nonces: g.numNonces, limit: MAX_NONCES_FOR_GAS_KEY } };
  if (g.balance !== 0n) return { AddGasKeyWithNonZeroBalance: { balance: g.balance.toString() } };
  return null;
}

/** nearcore's validate_deterministic_state_init: the code's id, the derived receiver, each entry's size. */
function validateStateInit(c: RuntimeConfig, init: StateInit, receiverId: string): unknown | null {
  if (init.code.kind === 'AccountId' && accountIdError(init.code.accountId) !== null)
    return { InvalidAccountId: { account_id: init.code.accountId } };
  const derivedId = deriveDeterministicAccountId(init);
  if (derivedId !== receiverId)
    return { InvalidDeterministicStateInitReceiver: { receiver_id: receiverId, derived_id: derivedId } };
  const keyLimit = c.wasm.limit_config.max_length_storage_key;
  const valueLimit = c.wasm.limit_config.max_length_storage_value;
  for (const [k, v] of init.data) {
    if (BigInt(k.length) > keyLimit)
      return { DeterministicStateInitKeyLengthExceeded: { length: k.length, limit: keyLimit } };
    if (BigInt(v.length) > valueLimit)
      return { DeterministicStateInitValueLengthExceeded: { length: v.length, limit: valueLimit } };
  }
  return null;
}

/** nearcore's validate_actions: count, per-action rules in order, then the total prepaid gas. */
export function validateActions(
  c: RuntimeConfig,
  actions: readonly Action[],
  receiverId: string,
): unknown | null {
  if (actions.length > c.maxActionsPerReceipt) {
    return {
      TotalNumberOfActionsExceeded: {
        total_number_of_actions: actions.length,
        limit: c.maxActionsPerReceipt,
      },
    };
  }
  // Each list is capped on its own: a delegate's inner actions become a receipt of their own, so
  // its deploys are counted when the recursion reaches them, not added to the outer ones.
  const deploys = actions.filter(
    (a) => a.type === 'DeployContract' || a.type === 'DeployGlobalContract',
  ).length;
  const deployLimit = c.maxDeployActionsPerReceipt;
  if (deploys > deployLimit) {
    return {
      TotalNumberOfDeployActionsExceeded: { number_of_deploy_actions: deploys, limit: deployLimit },
    };
  }
  let foundDelete = false;
  let foundDelegate = false;
  for (const a of actions) {
    if (foundDelete) return 'DeleteActionMustBeFinal';
    if (a.type === 'DeleteAccount') foundDelete = true;
    if (isDelegate(a)) {
      if (foundDelegate) return 'DelegateActionMustBeOnlyOne';
      foundDelegate = true;
    }
    const err = validateAction(c, a, receiverId);
    if (err !== null) return err;
  }
  const gas = totalPrepaidGas(actions);
  // nearcore sums the gas in u64: a sum past it is an overflow, not a total over the limit.
  if (gas > U64_MAX) return 'IntegerOverflow';
  if (gas > c.maxTotalPrepaidGas)
    return { TotalPrepaidGasExceeded: { total_prepaid_gas: gas, limit: c.maxTotalPrepaidGas } };
  return null;
}

/**
 * nearcore's tx_cost adds gas in u64 and balances in u128 with checked arithmetic: a cost past either
 * is CostOverflow (a deposit of u128::MAX, or deposits that add up past it), never a cost it reports.
 */
function costOverflows(cost: TransactionCost): boolean {
  return cost.totalCost > U128_MAX || cost.gasBurnt > U64_MAX || cost.gasRemaining > U64_MAX;
}

// A transaction is checked at admission, when its chunk is prepared and when it is applied: its
// signature needs verifying once. Remembered by hash and signature, in two generations: a lookup
// sees both, and when the newer fills it becomes the older, so what was verified just before a
// turnover is still known after it. A generation outlasts a transaction's few blocks from admission
// to its chunk even at thousands a second; one missed only costs a second check.
const GENERATION = 16_384;
let recent = new Set<string>();
let older = new Set<string>();

/**
 * `verdict` is the outcome of a check already made elsewhere (the node verifies signatures on
 * worker threads before admission) for exactly this hash, key and signature.
 */
function signatureValid(stx: SignedTransaction, verdict: boolean | undefined): boolean {
  // One char a byte of the hash and the whole signature (an ML-DSA-65 one, 3,309 bytes, by its
  // digest): 96 chars, where hex took twice that in every thread that checks transactions.
  const sig = stx.signature.data;
  const key = binaryKey(stx.hash) + binaryKey(sig.length > 65 ? sha256(sig) : sig);
  if (recent.has(key) || older.has(key)) return true;
  if (!(verdict ?? verifySignature(stx.hash, stx.signature, stx.transaction.publicKey))) return false;
  if (recent.size >= GENERATION) {
    older = recent;
    recent = new Set();
  }
  recent.add(key);
  return true;
}

/**
 * nearcore's verify_nonce against the key's nonce (or a gas key's at the index): a strict nonce
 * (V1's NonceMode::Strict) is exactly the next one, any other above it; and below the block's range.
 */
function nonceError(
  tx: Transaction,
  current: bigint,
  blockHeight: number | undefined,
): InvalidTxError | null {
  const nonceOk = tx.nonceMode === 'Strict' ? tx.nonce === current + 1n : tx.nonce > current;
  if (!nonceOk) return invalidTx.invalidNonce(tx.nonce, current);
  if (blockHeight !== undefined) {
    const upper = BigInt(blockHeight) * 1_000_000n;
    if (tx.nonce >= upper) return invalidTx.nonceTooLarge(tx.nonce, upper);
  }
  return null;
}

/**
 * nearcore's verify_function_call_permission, for a function-call key (a gas key's too): the
 * InvalidAccessKeyError of `actions` sent to `receiverId`, or null. A transaction and a delegate
 * action wrap it each in its own error.
 */
export function functionCallPermissionViolation(
  perm: AccessKeyPermission,
  receiverId: string,
  actions: readonly Action[],
): unknown | null {
  if (perm.kind !== 'FunctionCall') return null;
  const fc = actions.length === 1 ? actions[0] : undefined;
  if (fc?.type !== 'FunctionCall') return 'RequiresFullAccess';
  if (fc.deposit > 0n) return 'DepositWithFunctionCall';
  if (receiverId !== perm.receiverId)
    return { ReceiverMismatch: { tx_receiver: receiverId, ak_receiver: perm.receiverId } };
  if (perm.methodNames.length > 0 && !perm.methodNames.includes(fc.methodName))
    return { MethodNameMismatch: { method_name: fc.methodName } };
  return null;
}

function functionCallPermissionError(perm: AccessKeyPermission, tx: Transaction): InvalidTxError | null {
  const violation = functionCallPermissionViolation(perm, tx.receiverId, tx.actions);
  return violation === null ? null : invalidTx.accessKey(violation);
}

/**
 * nearcore's verify_and_charge_gas_key_tx_ephemeral: the nonce is the key's one at the index, the
 * gas is paid from the key's balance, and only the deposits from the account. An account that cannot
 * cover the deposits fails the transaction (NotEnoughBalanceForDeposit) before it is admitted.
 */
function verifyGasKeyTransaction(
  state: TrieUpdate,
  stx: SignedTransaction,
  c: RuntimeConfig,
  opts: { readonly blockHeight?: number; readonly charge: boolean },
  account: Account,
  key: AccessKey,
  cost: TransactionCost,
): VerifyResult {
  const tx = stx.transaction;
  const index = tx.nonceIndex!;
  const fail = (error: InvalidTxError): VerifyResult => ({ ok: false, error });
  const gasKey = key.permission.gasKey;
  // An ordinary key has no nonces to index: nearcore finds no nonce there and reports zero of them.
  if (!gasKey) return fail(invalidTx.invalidNonceIndex(index, 0));
  const current = getGasKeyNonce(state, tx.signerId, tx.publicKey, gasKey, index);
  if (current === null) return fail(invalidTx.invalidNonceIndex(index, gasKey.numNonces));
  const nonceErr = nonceError(tx, current, opts.blockHeight);
  if (nonceErr !== null) return fail(nonceErr);
  const { depositCost } = cost;
  const gasCost = cost.totalCost - depositCost;
  if (gasKey.balance < gasCost)
    return fail(invalidTx.notEnoughGasKeyBalance(tx.signerId, gasKey.balance, gasCost));
  const permErr = functionCallPermissionError(key.permission, tx);
  if (permErr !== null) return fail(permErr);
  if (account.amount < depositCost) {
    return fail(
      invalidTx.notEnoughBalanceForDeposit(tx.signerId, account.amount, depositCost, 'NotEnoughBalance'),
    );
  }
  const after = { ...account, amount: account.amount - depositCost };
  const shortfall = storageShortfall(after, c.storageAmountPerByte);
  if (shortfall > 0n) {
    return fail(
      invalidTx.notEnoughBalanceForDeposit(tx.signerId, after.amount, shortfall, 'LackBalanceForState'),
    );
  }
  if (opts.charge) {
    setAccount(state, tx.signerId, after);
    setGasKeyBalance(state, tx.signerId, tx.publicKey, key, gasKey.balance - gasCost);
    setGasKeyNonce(state, tx.signerId, tx.publicKey, index, tx.nonce);
  }
  return { ok: true, cost };
}

export function verifyTransaction(
  state: TrieUpdate,
  stx: SignedTransaction,
  c: RuntimeConfig,
  gasPrice: bigint,
  opts: {
    readonly blockHeight?: number;
    readonly charge: boolean;
    /** A signature verdict reached before this call; without it the signature is checked here. */
    readonly signatureVerdict?: boolean;
  },
): VerifyResult {
  const tx = stx.transaction;
  const fail = (error: InvalidTxError): VerifyResult => ({ ok: false, error });
  const actionsErr = validateActions(c, tx.actions, tx.receiverId);
  if (actionsErr !== null) return fail(invalidTx.actionsValidation(actionsErr));
  if (stx.bytes.length > c.maxTransactionSize)
    return fail(invalidTx.sizeExceeded(stx.bytes.length, c.maxTransactionSize));
  if (!signatureValid(stx, opts.signatureVerdict)) return fail('InvalidSignature');
  // The cost comes before the signer, as in nearcore's can_verify_and_charge_tx.
  const cost = txCost(c, tx.signerId, tx.publicKey.keyType, tx.receiverId, tx.actions, gasPrice);
  if (costOverflows(cost)) return fail('CostOverflow');
  const account = getAccount(state, tx.signerId);
  if (!account) return fail(invalidTx.signerDoesNotExist(tx.signerId));
  const key = getAccessKey(state, tx.signerId, tx.publicKey);
  if (!key) return fail(invalidTx.accessKeyNotFound(tx.signerId, tx.publicKey));
  if (tx.nonceIndex !== undefined) return verifyGasKeyTransaction(state, stx, c, opts, account, key, cost);
  // A gas key signs only with one of its nonces (a GasKeyNonce).
  if (key.permission.gasKey) return fail(invalidTx.invalidNonceIndex(null, key.permission.gasKey.numNonces));
  const nonceErr = nonceError(tx, key.nonce, opts.blockHeight);
  if (nonceErr !== null) return fail(nonceErr);
  if (account.amount < cost.totalCost)
    return fail(invalidTx.notEnoughBalance(tx.signerId, account.amount, cost.totalCost));
  const perm = key.permission;
  let allowance: bigint | null = null;
  if (perm.kind === 'FunctionCall') {
    if (perm.allowance !== null) {
      if (perm.allowance < cost.totalCost)
        return fail(invalidTx.notEnoughAllowance(tx.signerId, tx.publicKey, perm.allowance, cost.totalCost));
      allowance = perm.allowance - cost.totalCost;
    }
  }
  const after = { ...account, amount: account.amount - cost.totalCost };
  const shortfall = storageShortfall(after, c.storageAmountPerByte);
  if (shortfall > 0n) return fail(invalidTx.lackBalanceForState(tx.signerId, shortfall));
  const permErr = functionCallPermissionError(perm, tx);
  if (permErr !== null) return fail(permErr);
  if (opts.charge) {
    setAccount(state, tx.signerId, after);
    const permission = perm.kind === 'FunctionCall' && allowance !== null ? { ...perm, allowance } : perm;
    setAccessKey(state, tx.signerId, tx.publicKey, { nonce: tx.nonce, permission });
  }
  return { ok: true, cost };
}
