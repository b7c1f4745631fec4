// Applying one action of an action receipt to the receiver's state (runtime/runtime/src/actions.rs).
// Each returns an ActionError kind on failure; the caller rolls the whole receipt back.
import {
  type Account,
  type Action,
  type AnyDelegate,
  accountType,
  decodeAccessKey,
  delegateActionHash,
  delegateActionV2Hash,
  formatPublicKey,
  fromHex,
  isSubAccountOf,
  isTopLevelAccount,
  KeyType,
  type PublicKey,
  sha256,
  verifySignature,
  withContract,
} from '@nearlite/primitives';
import {
  parseTrieKey,
  type TrieUpdate,
  trieKeyAccessKey,
  trieKeyAccessKeyPrefix,
  trieKeyAccount,
  trieKeyContractCode,
  trieKeyContractDataPrefix,
  trieKeyGasKeyNonce,
} from '@nearlite/trie';
import type { RuntimeConfig } from './config/runtime_config.js';
import { accessKeyStorage, gasKeyNoncesStorage } from './fees.js';
import { contractStorageUsage } from './global_contracts.js';
import { balanceRefund, type NewReceiptSpec } from './receipt_spec.js';
import {
  getAccessKey,
  getGasKey,
  getGasKeyNonce,
  setAccessKey,
  setAccount,
  setGasKeyBalance,
  setGasKeyNonce,
  setGasKeyNonces,
} from './state.js';
import { functionCallPermissionViolation } from './verifier.js';

export interface ActionContext {
  readonly state: TrieUpdate;
  readonly config: RuntimeConfig;
  readonly receiverId: string;
  readonly predecessorId: string;
  /** Starts as the predecessor; CreateAccount (and implicit creation) makes the new account the actor. */
  actorId: string;
  readonly signerId: string;
  readonly signerPublicKey: PublicKey;
  readonly gasPrice: bigint;
  readonly blockHeight: number;
  /** Picks the wallet contract an ETH-implicit account is created with. */
  readonly chainId: string;
  /** The least non-zero stake a Stake action may ask for (ApplyContext.minimumStake). */
  readonly minimumStake: bigint;
  /** A refund (predecessor `system`): never creates accounts, restores the signer key's allowance. */
  readonly isRefund: boolean;
  /** The receipt has exactly one action (implicit accounts are created only by a lone Transfer). */
  readonly isOnlyAction: boolean;
  /** Where the receipt's balance refunds go: its refund_to, else its predecessor. */
  readonly balanceRefundReceiver: string;
  /** The receiver's account as the receipt has changed it so far (null when it does not exist). */
  account: Account | null;
  /**
   * The chunk's recorded storage proof (its upper bound) when the receipt began: what the receipt's
   * function calls add to it from there may not pass per_receipt_storage_proof_size_limit.
   */
  readonly storageProofSizeBeforeReceipt: number;
  /** Receipts the actions create, in order (DeleteAccount's payout, Delegate's inner receipt, calls). */
  readonly newReceipts: NewReceiptSpec[];
  readonly validatorProposals: { accountId: string; publicKey: PublicKey; stake: bigint }[];
  /** Tokens the actions burn besides gas (a global deploy's storage), reported in the outcome. */
  tokensBurnt: bigint;
  /**
   * Deposits the receipt's contract calls attached without paying them (`one_yocto_on_promise`):
   * minted, so they lower the chunk's balance_burnt.
   */
  subsidizedAmount: bigint;
  /** Compute the actions take that no gas pays for: removing a gas key's nonces. */
  extraCompute: bigint;
}

/**
 * nearcore's storage_removes_compute: what removing `count` rows of `keyBytes` and `valueBytes` in
 * all takes of the chunk's compute, at the host functions' compute costs.
 */
function storageRemovesCompute(c: RuntimeConfig, count: number, keyBytes: number): bigint {
  const cost = (k: 'storage_remove_base' | 'storage_remove_key_byte' | 'storage_remove_ret_value_byte') =>
    c.wasm.ext_compute_costs[k] ?? c.wasm.ext_costs[k];
  return (
    cost('storage_remove_base') * BigInt(count) +
    cost('storage_remove_key_byte') * BigInt(keyBytes) +
    cost('storage_remove_ret_value_byte') * BigInt(GAS_KEY_NONCE_VALUE_LEN * count)
  );
}

/** AccessKey::NONCE_VALUE_LEN: a nonce is a u64. */
const GAS_KEY_NONCE_VALUE_LEN = 8;

/** nearcore's GasKeyInfo::MAX_BALANCE_TO_BURN: a gas key holding more cannot be deleted (1 NEAR). */
const MAX_GAS_KEY_BALANCE_TO_BURN = 10n ** 24n;

/** nearcore's Account::MAX_ACCOUNT_DELETION_STORAGE_USAGE (code excluded). */
const MAX_ACCOUNT_DELETION_STORAGE_USAGE = 10_000n;

export type ActionErrorKind = Record<string, unknown> | string;

/** New keys start at (height − 1) × 1e6 so old nonces can never be replayed. */
const newKeyNonce = (height: number) => BigInt(height - 1) * 1_000_000n;

/** A new account of `amount` with no keys and no contract: just its num_bytes_account of storage. */
export function newAccount(ctx: ActionContext, amount: bigint): Account {
  return {
    amount,
    locked: 0n,
    codeHash: new Uint8Array(32),
    storageUsage: ctx.config.fees.storage_usage_config.num_bytes_account,
  };
}

function needAccount(ctx: ActionContext): Account | ActionErrorKind {
  return ctx.account ?? { AccountDoesNotExist: { account_id: ctx.receiverId } };
}

function actorCheck(ctx: ActionContext): ActionErrorKind | null {
  return ctx.actorId === ctx.receiverId
    ? null
    : { ActorNoPermission: { account_id: ctx.receiverId, actor_id: ctx.actorId } };
}

export function createAccount(ctx: ActionContext): ActionErrorKind | null {
  const id = ctx.receiverId;
  if (ctx.account) return { AccountAlreadyExists: { account_id: id } };
  if (accountType(id) !== 'NamedAccount') return { OnlyImplicitAccountCreationAllowed: { account_id: id } };
  if (isTopLevelAccount(id)) {
    if (
      id.length < ctx.config.minAllowedTopLevelAccountLength &&
      ctx.actorId !== ctx.config.registrarAccountId
    ) {
      return {
        CreateAccountOnlyByRegistrar: {
          account_id: id,
          registrar_account_id: ctx.config.registrarAccountId,
          predecessor_id: ctx.actorId,
        },
      };
    }
  } else if (!isSubAccountOf(id, ctx.actorId)) {
    return { CreateAccountNotAllowed: { account_id: id, predecessor_id: ctx.actorId } };
  }
  ctx.account = newAccount(ctx, 0n);
  ctx.actorId = id;
  return null;
}

export function transfer(ctx: ActionContext, deposit: bigint): ActionErrorKind | null {
  if (ctx.account) {
    const isGasRefund = ctx.isRefund && ctx.signerId === ctx.receiverId;
    // A gas refund to a gas key goes back to the key's balance, not the account's.
    const g = isGasRefund ? getGasKey(ctx.state, ctx.receiverId, ctx.signerPublicKey) : null;
    if (g) {
      setGasKeyBalance(ctx.state, ctx.receiverId, ctx.signerPublicKey, g.key, g.gasKey.balance + deposit);
      return null;
    }
    ctx.account = { ...ctx.account, amount: ctx.account.amount + deposit };
    if (isGasRefund) refundAllowance(ctx, deposit);
    return null;
  }
  // A lone transfer (not a refund) creates a NEAR-implicit account with its derived full-access key,
  // an ETH-implicit one running the chain's wallet global contract, or a deterministic one with no
  // key and no contract until its StateInit arrives; any other action alongside could hijack the
  // account. nearcore's account_is_implicit counts only NEAR-implicit ids while
  // eth_implicit_accounts is off.
  if (!ctx.isOnlyAction || ctx.isRefund) return { AccountDoesNotExist: { account_id: ctx.receiverId } };
  const kind = accountType(ctx.receiverId);
  if (kind !== 'NearImplicitAccount' && !ctx.config.wasm.eth_implicit_accounts)
    return { AccountDoesNotExist: { account_id: ctx.receiverId } };
  if (kind === 'EthImplicitAccount') {
    const hash = ethWalletGlobalContractHash(ctx.chainId);
    const usage = ctx.config.fees.storage_usage_config.num_bytes_account + BigInt(hash.length);
    ctx.account = withContract(
      { amount: deposit, locked: 0n, codeHash: new Uint8Array(32), storageUsage: usage },
      { kind: 'Global', hash },
    );
    ctx.actorId = ctx.receiverId;
    return null;
  }
  if (kind === 'NearDeterministicAccount') {
    ctx.account = newAccount(ctx, deposit);
    ctx.actorId = ctx.receiverId;
    return null;
  }
  if (kind === 'NearImplicitAccount') {
    const publicKey = { keyType: KeyType.ED25519, data: fromHex(ctx.receiverId) };
    const accessKey = { nonce: newKeyNonce(ctx.blockHeight), permission: { kind: 'FullAccess' as const } };
    const usage =
      ctx.config.fees.storage_usage_config.num_bytes_account +
      accessKeyStorage(ctx.config, { type: 'AddKey', publicKey, accessKey });
    ctx.account = { amount: deposit, locked: 0n, codeHash: new Uint8Array(32), storageUsage: usage };
    setAccessKey(ctx.state, ctx.receiverId, publicKey, accessKey);
    ctx.actorId = ctx.receiverId;
    return null;
  }
  return { AccountDoesNotExist: { account_id: ctx.receiverId } };
}

// The ETH wallet contract deployed as a global contract on mainnet (and mocknet) and on testnet
// (near-wallet-contract eth_wallet_global_contract_hash), base58 2zodJZK2e4nnv5AqwCRnenNSmkikXhEd7PPY6BmfTmW4
// and 3PpYvRxBfC5BkZxTw8ZFG3D52w1ZRhvDDWirKoxphMDn.
const ETH_WALLET_MAINNET = fromHex('1daa835c4637f7ae3d924095ba3f0bf2829bcfa17b1068cd58bd853dcad7ceb5');
const ETH_WALLET_TESTNET = fromHex('238feac1f86cc9f9f4003e3f6d5aebc04eaea9c394032bd29470e9609b67f6c5');
// Any other chain uses the hash of nearcore's embedded localnet wallet contract
// (res/wallet_contract_localnet.wasm), so a test chain can deploy that code as a global contract:
// FAq9tQRbwJPTV3PQLn2F7AUD3FW2Fw1V8ZeZuazfeu1v.
const ETH_WALLET_LOCALNET = fromHex('d2884a900d4fa370e48f1e3d4865d4dc0dbd093c89f0e7baef2eddc142c49e8d');

/** The global contract (by hash) a new ETH-implicit account on `chainId` runs. */
export function ethWalletGlobalContractHash(chainId: string): Uint8Array {
  if (chainId === 'mainnet' || chainId === 'mocknet') return ETH_WALLET_MAINNET;
  if (chainId === 'testnet') return ETH_WALLET_TESTNET;
  return ETH_WALLET_LOCALNET;
}

/** nearcore's try_refund_allowance: a gas refund restores a function-call key's allowance. */
function refundAllowance(ctx: ActionContext, amount: bigint): void {
  const key = getAccessKey(ctx.state, ctx.receiverId, ctx.signerPublicKey);
  const p = key?.permission;
  if (!key || p?.kind !== 'FunctionCall' || p.allowance === null) return;
  const allowance = p.allowance + amount > U128_MAX ? U128_MAX : p.allowance + amount;
  setAccessKey(ctx.state, ctx.receiverId, ctx.signerPublicKey, { ...key, permission: { ...p, allowance } });
}

const U128_MAX = (1n << 128n) - 1n;

export function deployContract(ctx: ActionContext, code: Uint8Array): ActionErrorKind | null {
  const acc = needAccount(ctx);
  if (!('amount' in (acc as object))) return acc as ActionErrorKind;
  const err = actorCheck(ctx);
  if (err) return err;
  const a = acc as Account;
  // The previous contract's usage goes: local code, or the reference to a global contract.
  const prev = contractStorageUsage(ctx.state, ctx.receiverId, a);
  ctx.state.set(trieKeyContractCode(ctx.receiverId), code);
  const usage = (a.storageUsage > prev ? a.storageUsage - prev : 0n) + BigInt(code.length);
  ctx.account = withContract({ ...a, storageUsage: usage }, { kind: 'Local', hash: sha256(code) });
  return null;
}

export function addKey(
  ctx: ActionContext,
  action: Extract<Action, { type: 'AddKey' }>,
): ActionErrorKind | null {
  const acc = needAccount(ctx);
  if (!('amount' in (acc as object))) return acc as ActionErrorKind;
  const err = actorCheck(ctx);
  if (err) return err;
  if (getAccessKey(ctx.state, ctx.receiverId, action.publicKey)) {
    return {
      AddKeyAlreadyExists: { account_id: ctx.receiverId, public_key: formatPublicKey(action.publicKey) },
    };
  }
  const a = acc as Account;
  const gasKey = action.accessKey.permission.gasKey;
  if (gasKey) {
    // A gas key's own nonce is unused (0); each of its nonces has a row, starting where a new key's does.
    const accessKey = { ...action.accessKey, nonce: 0n };
    setAccessKey(ctx.state, ctx.receiverId, action.publicKey, accessKey);
    const nonce = newKeyNonce(ctx.blockHeight);
    setGasKeyNonces(ctx.state, ctx.receiverId, action.publicKey, gasKey.numNonces, nonce);
    const usage =
      accessKeyStorage(ctx.config, { ...action, accessKey }) +
      gasKeyNoncesStorage(ctx.config, action.publicKey, gasKey.numNonces);
    ctx.account = { ...a, storageUsage: a.storageUsage + usage };
    return null;
  }
  const accessKey = { ...action.accessKey, nonce: newKeyNonce(ctx.blockHeight) };
  setAccessKey(ctx.state, ctx.receiverId, action.publicKey, accessKey);
  ctx.account = { ...a, storageUsage: a.storageUsage + accessKeyStorage(ctx.config, action) };
  return null;
}

export function deleteKey(
  ctx: ActionContext,
  action: Extract<Action, { type: 'DeleteKey' }>,
): ActionErrorKind | null {
  const acc = needAccount(ctx);
  if (!('amount' in (acc as object))) return acc as ActionErrorKind;
  const err = actorCheck(ctx);
  if (err) return err;
  const existing = getAccessKey(ctx.state, ctx.receiverId, action.publicKey);
  if (!existing)
    return {
      DeleteKeyDoesNotExist: { account_id: ctx.receiverId, public_key: formatPublicKey(action.publicKey) },
    };
  const gasKey = existing.permission.gasKey;
  if (gasKey && gasKey.balance > MAX_GAS_KEY_BALANCE_TO_BURN) {
    return {
      GasKeyBalanceTooHigh: {
        account_id: ctx.receiverId,
        public_key: formatPublicKey(action.publicKey),
        balance: gasKey.balance.toString(),
      },
    };
  }
  let freed = accessKeyStorage(ctx.config, {
    type: 'AddKey',
    publicKey: action.publicKey,
    accessKey: existing,
  });
  if (gasKey) {
    // What is left on a gas key is burnt with it.
    ctx.tokensBurnt += gasKey.balance;
    setGasKeyNonces(ctx.state, ctx.receiverId, action.publicKey, gasKey.numNonces, null);
    freed += gasKeyNoncesStorage(ctx.config, action.publicKey, gasKey.numNonces);
    const keyLen = trieKeyGasKeyNonce(ctx.receiverId, action.publicKey, 0).length;
    ctx.extraCompute += storageRemovesCompute(ctx.config, gasKey.numNonces, keyLen * gasKey.numNonces);
  }
  ctx.state.remove(trieKeyAccessKey(ctx.receiverId, action.publicKey));
  const a = acc as Account;
  ctx.account = { ...a, storageUsage: a.storageUsage > freed ? a.storageUsage - freed : 0n };
  return null;
}

/** nearcore's action_transfer_to_gas_key: anyone may fund a gas key; the deposit left the sender. */
export function transferToGasKey(
  ctx: ActionContext,
  action: Extract<Action, { type: 'TransferToGasKey' }>,
): ActionErrorKind | null {
  const acc = needAccount(ctx);
  if (!('amount' in (acc as object))) return acc as ActionErrorKind;
  const g = getGasKey(ctx.state, ctx.receiverId, action.publicKey);
  if (!g) return gasKeyDoesNotExist(ctx, action.publicKey);
  setGasKeyBalance(ctx.state, ctx.receiverId, action.publicKey, g.key, g.gasKey.balance + action.deposit);
  return null;
}

/** nearcore's action_withdraw_from_gas_key: the account takes part of its key's balance back. */
export function withdrawFromGasKey(
  ctx: ActionContext,
  action: Extract<Action, { type: 'WithdrawFromGasKey' }>,
): ActionErrorKind | null {
  const acc = needAccount(ctx);
  if (!('amount' in (acc as object))) return acc as ActionErrorKind;
  const err = actorCheck(ctx);
  if (err) return err;
  const g = getGasKey(ctx.state, ctx.receiverId, action.publicKey);
  if (!g) return gasKeyDoesNotExist(ctx, action.publicKey);
  const { balance } = g.gasKey;
  if (balance < action.amount) {
    return {
      InsufficientGasKeyBalance: {
        account_id: ctx.receiverId,
        public_key: formatPublicKey(action.publicKey),
        balance: balance.toString(),
        required: action.amount.toString(),
      },
    };
  }
  setGasKeyBalance(ctx.state, ctx.receiverId, action.publicKey, g.key, balance - action.amount);
  const a = acc as Account;
  ctx.account = { ...a, amount: a.amount + action.amount };
  return null;
}

function gasKeyDoesNotExist(ctx: ActionContext, pk: PublicKey): ActionErrorKind {
  return { GasKeyDoesNotExist: { account_id: ctx.receiverId, public_key: formatPublicKey(pk) } };
}

export function deleteAccount(ctx: ActionContext, beneficiaryId: string): ActionErrorKind | null {
  const acc = needAccount(ctx);
  if (!('amount' in (acc as object))) return acc as ActionErrorKind;
  const err = actorCheck(ctx);
  if (err) return err;
  const a = acc as Account;
  if (a.locked > 0n) return { DeleteAccountStaking: { account_id: ctx.receiverId } };
  // FixDeleteAccountGlobalContractStorageUsage (85): a global contract's reference is not state either.
  const codeLen = contractStorageUsage(ctx.state, ctx.receiverId, a);
  const usage = a.storageUsage > codeLen ? a.storageUsage - codeLen : 0n;
  if (usage > MAX_ACCOUNT_DELETION_STORAGE_USAGE)
    return { DeleteAccountWithLargeState: { account_id: ctx.receiverId } };
  // Its gas keys' balances are burnt with it, if together they are small enough to burn. The keys'
  // rows are read once: summed here, removed below.
  const keyRows = [...ctx.state.iterPrefix(trieKeyAccessKeyPrefix(ctx.receiverId))];
  let gasKeyBalances = 0n;
  let nonces = 0;
  let nonceKeyBytes = 0;
  for (const [k, v] of keyRows) {
    if (parseTrieKey(k).col !== 'access_key') {
      // One of a gas key's nonces.
      nonces++;
      nonceKeyBytes += k.length;
      continue;
    }
    const g = decodeAccessKey(v).permission.gasKey;
    if (g) gasKeyBalances += g.balance;
  }
  if (gasKeyBalances > MAX_GAS_KEY_BALANCE_TO_BURN) {
    return {
      GasKeyBalanceTooHigh: {
        account_id: ctx.receiverId,
        public_key: null,
        balance: gasKeyBalances.toString(),
      },
    };
  }
  ctx.tokensBurnt += gasKeyBalances;
  for (const [k] of keyRows) ctx.state.remove(k);
  if (nonces > 0) ctx.extraCompute += storageRemovesCompute(ctx.config, nonces, nonceKeyBytes);
  for (const [k] of [...ctx.state.iterPrefix(trieKeyContractDataPrefix(ctx.receiverId))]) ctx.state.remove(k);
  ctx.state.remove(trieKeyContractCode(ctx.receiverId));
  ctx.state.remove(trieKeyAccount(ctx.receiverId));
  // nearcore pays the balance out as a balance refund: free, and burnt if the beneficiary is gone.
  if (a.amount > 0n) ctx.newReceipts.push(balanceRefund(beneficiaryId, a.amount));
  ctx.account = null;
  ctx.actorId = ctx.predecessorId;
  return null;
}

export function stake(
  ctx: ActionContext,
  action: Extract<Action, { type: 'Stake' }>,
): ActionErrorKind | null {
  const acc = needAccount(ctx);
  if (!('amount' in (acc as object))) return acc as ActionErrorKind;
  const err = actorCheck(ctx);
  if (err) return err;
  const a = acc as Account;
  if (action.stake === 0n && a.locked === 0n) return { TriesToUnstake: { account_id: ctx.receiverId } };
  const increase = action.stake > a.locked ? action.stake - a.locked : 0n;
  if (increase > a.amount) {
    return {
      TriesToStake: {
        account_id: ctx.receiverId,
        stake: action.stake.toString(),
        locked: a.locked.toString(),
        balance: a.amount.toString(),
      },
    };
  }
  // Only once the balance covers it: nearcore checks the minimum inside its balance branch.
  if (action.stake > 0n && action.stake < ctx.minimumStake) {
    return {
      InsufficientStake: {
        account_id: ctx.receiverId,
        stake: action.stake.toString(),
        minimum_stake: ctx.minimumStake.toString(),
      },
    };
  }
  ctx.validatorProposals.push({
    accountId: ctx.receiverId,
    publicKey: action.publicKey,
    stake: action.stake,
  });
  // Unstaking releases at the end of the epoch in nearcore; with one local validator set it stays locked.
  if (increase > 0n) ctx.account = { ...a, amount: a.amount - increase, locked: action.stake };
  return null;
}

/** A Delegate or a DelegateV2 (whose nonce may be one of a gas key's), as apply_delegate_action runs both. */
export function delegate(ctx: ActionContext, action: AnyDelegate): ActionErrorKind | null {
  const acc = needAccount(ctx);
  if (!('amount' in (acc as object))) return acc as ActionErrorKind;
  const d = action.delegateAction;
  const hash = action.type === 'DelegateV2' ? delegateActionV2Hash(d) : delegateActionHash(d);
  if (!verifySignature(hash, action.signature, d.publicKey)) return 'DelegateActionInvalidSignature';
  if (BigInt(ctx.blockHeight) > d.maxBlockHeight) return 'DelegateActionExpired';
  if (d.senderId !== ctx.receiverId) {
    return {
      DelegateActionSenderDoesNotMatchTxReceiver: { sender_id: d.senderId, receiver_id: ctx.receiverId },
    };
  }
  const key = getAccessKey(ctx.state, d.senderId, d.publicKey);
  if (!key)
    return {
      DelegateActionAccessKeyError: {
        AccessKeyNotFound: { account_id: d.senderId, public_key: formatPublicKey(d.publicKey) },
      },
    };
  // A plain nonce is the key's own, which a gas key (nonces per index) cannot sign with; a gas key's
  // nonce needs a gas key and an index it has.
  const gasKey = key.permission.gasKey;
  let current = key.nonce;
  if (d.nonceIndex === undefined) {
    if (gasKey) return { DelegateActionAccessKeyError: 'DelegateActionRequiresNonGasKey' };
  } else {
    if (!gasKey) return { DelegateActionAccessKeyError: 'DelegateActionRequiresGasKey' };
    const row = getGasKeyNonce(ctx.state, d.senderId, d.publicKey, gasKey, d.nonceIndex);
    if (row === null)
      return { DelegateActionInvalidNonceIndex: { nonce_index: d.nonceIndex, num_nonces: gasKey.numNonces } };
    current = row;
  }
  if (d.nonce <= current)
    return { DelegateActionInvalidNonce: { delegate_nonce: d.nonce, ak_nonce: current } };
  const upper = BigInt(ctx.blockHeight) * 1_000_000n;
  if (d.nonce >= upper)
    return { DelegateActionNonceTooLarge: { delegate_nonce: d.nonce, upper_bound: upper } };
  const violation = functionCallPermissionViolation(key.permission, d.receiverId, d.actions);
  if (violation !== null) return { DelegateActionAccessKeyError: violation };
  if (d.nonceIndex === undefined)
    setAccessKey(ctx.state, d.senderId, d.publicKey, { ...key, nonce: d.nonce });
  else setGasKeyNonce(ctx.state, d.senderId, d.publicKey, d.nonceIndex, d.nonce);
  // The relayer (the outer signer) paid for everything the inner receipt needs.
  ctx.newReceipts.push({
    kind: 'Action',
    predecessorId: d.senderId,
    receiverId: d.receiverId,
    signerId: ctx.signerId,
    signerPublicKey: ctx.signerPublicKey,
    gasPrice: ctx.gasPrice,
    outputDataReceivers: [],
    inputDataIds: [],
    actions: [...d.actions],
  });
  return null;
}

export function writeAccount(ctx: ActionContext): void {
  if (ctx.account) setAccount(ctx.state, ctx.receiverId, ctx.account);
}
