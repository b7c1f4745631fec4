// Global contracts (nearcore's runtime/runtime/src/global_contracts.rs): code deployed once and
// stored on every shard under TrieKey::GlobalContractCode, which accounts then use by reference.
//
// A DeployGlobalContract action burns the code's storage (global_contract_storage_amount_per_byte per
// byte), bumps the identifier's deployment nonce and emits a distribution receipt addressed to the
// deploying shard. Each shard that applies it stores the code (unless a newer nonce already arrived)
// and forwards it to the next shard of the layout it has not reached; no outcome is recorded for it.
import {
  type Account,
  type AccountContract,
  accountContract,
  type CryptoHash,
  type GlobalContractDistributionReceipt,
  type GlobalContractIdentifier,
  globalContractIdentifierJson,
  globalIdentifierOf,
  type Receipt,
  receiptIdFromReceipt,
  SYSTEM_ACCOUNT,
  setU64,
  sha256,
  withContract,
  ZERO_HASH,
} from '@nearlite/primitives';
import {
  type TrieUpdate,
  trieKeyContractCode,
  trieKeyGlobalContractCode,
  trieKeyGlobalContractNonce,
} from '@nearlite/trie';
import type { ActionContext, ActionErrorKind } from './actions.js';
import type { RuntimeConfig } from './config/runtime_config.js';
import { globalContractIdentifierLen } from './fees.js';

/**
 * nearcore's get_contract_storage_usage: what the account's contract adds to its storage usage (the
 * local code's length, or the bytes of the global identifier it keeps). The code's length is taken
 * as nearcore's get_code_len takes it, from the value's reference: a recorded lookup stops there.
 */
export function contractStorageUsage(
  state: Pick<TrieUpdate, 'valueLength'>,
  accountId: string,
  a: Account,
): bigint {
  const c = accountContract(a);
  if (c.kind === 'None') return 0n;
  if (c.kind === 'Local') return BigInt(state.valueLength(trieKeyContractCode(accountId)) ?? 0);
  return globalContractIdentifierLen(globalIdentifierOf(c)!);
}

export interface ResolvedContract {
  /** The hash compiled modules are cached under; all zeros when there is no code. */
  readonly hash: CryptoHash;
  readonly code: () => Uint8Array | null;
}

/**
 * The code a call to the account runs: its own, or the global contract it uses (by code hash, or
 * whatever the owner account last deployed). Null code makes the call fail with CodeDoesNotExist.
 */
export function resolveContract(
  state: { get(key: Uint8Array): Uint8Array | undefined },
  accountId: string,
  a: Account,
): ResolvedContract {
  const c = accountContract(a);
  // An account without a contract runs none, whatever code row a state patch left under its id
  // (nearcore's RuntimeContractIdentifier::resolve: NotDeployed).
  if (c.kind === 'None') return { hash: ZERO_HASH, code: () => null };
  if (c.kind === 'Global') {
    const key = trieKeyGlobalContractCode({ kind: 'CodeHash', hash: c.hash });
    return { hash: c.hash, code: () => state.get(key) ?? null };
  }
  if (c.kind === 'GlobalByAccount') {
    const code = state.get(trieKeyGlobalContractCode({ kind: 'AccountId', accountId: c.accountId })) ?? null;
    return { hash: code ? sha256(code) : new Uint8Array(32), code: () => code };
  }
  return { hash: a.codeHash, code: () => state.get(trieKeyContractCode(accountId)) ?? null };
}

function readNonce(state: TrieUpdate, id: GlobalContractIdentifier): bigint {
  const raw = state.get(trieKeyGlobalContractNonce(id));
  if (!raw) return 0n;
  return new DataView(raw.buffer, raw.byteOffset, raw.byteLength).getBigUint64(0, true);
}

function writeNonce(state: TrieUpdate, id: GlobalContractIdentifier, nonce: bigint): void {
  const out = new Uint8Array(8);
  setU64(out, 0, nonce, true);
  state.set(trieKeyGlobalContractNonce(id), out);
}

export function deployGlobalContract(
  ctx: ActionContext,
  code: Uint8Array,
  deployMode: 0 | 1,
  shardId: number,
): ActionErrorKind | null {
  const a = ctx.account;
  if (!a) return { AccountDoesNotExist: { account_id: ctx.receiverId } };
  if (ctx.actorId !== ctx.receiverId)
    return { ActorNoPermission: { account_id: ctx.receiverId, actor_id: ctx.actorId } };
  const cost = ctx.config.globalContractStorageAmountPerByte * BigInt(code.length);
  if (a.amount < cost)
    return { LackBalanceForState: { account_id: ctx.receiverId, amount: cost.toString() } };
  ctx.account = { ...a, amount: a.amount - cost };
  ctx.tokensBurnt += cost;
  const id: GlobalContractIdentifier =
    deployMode === 0
      ? { kind: 'CodeHash', hash: sha256(code) }
      : { kind: 'AccountId', accountId: ctx.receiverId };
  // The nonce is written now, so two deploys in flight carry different nonces and the later one wins.
  const nonce = readNonce(ctx.state, id) + 1n;
  writeNonce(ctx.state, id, nonce);
  ctx.newReceipts.push({
    kind: 'GlobalContractDistribution',
    predecessorId: ctx.receiverId,
    receiverId: SYSTEM_ACCOUNT,
    id,
    targetShard: BigInt(shardId),
    alreadyDeliveredShards: [],
    code,
    nonce,
  });
  return null;
}

export function useGlobalContract(ctx: ActionContext, id: GlobalContractIdentifier): ActionErrorKind | null {
  const a = ctx.account;
  if (!a) return { AccountDoesNotExist: { account_id: ctx.receiverId } };
  if (ctx.actorId !== ctx.receiverId)
    return { ActorNoPermission: { account_id: ctx.receiverId, actor_id: ctx.actorId } };
  return setGlobalContract(ctx, a, id);
}

/**
 * nearcore's use_global_contract: the account runs the global contract from now on, its previous
 * contract's usage (local code or another reference) replaced by the identifier's bytes.
 */
export function setGlobalContract(
  ctx: ActionContext,
  a: Account,
  id: GlobalContractIdentifier,
): ActionErrorKind | null {
  if (!ctx.state.has(trieKeyGlobalContractCode(id)))
    return { GlobalContractDoesNotExist: { identifier: globalContractIdentifierJson(id) } };
  const previous = contractStorageUsage(ctx.state, ctx.receiverId, a);
  if (accountContract(a).kind === 'Local') ctx.state.remove(trieKeyContractCode(ctx.receiverId));
  const usage =
    (a.storageUsage > previous ? a.storageUsage - previous : 0n) + globalContractIdentifierLen(id);
  const contract: AccountContract =
    id.kind === 'CodeHash'
      ? { kind: 'Global', hash: id.hash }
      : { kind: 'GlobalByAccount', accountId: id.accountId };
  ctx.account = withContract({ ...a, storageUsage: usage }, contract);
  return null;
}

export interface DistributionContext {
  readonly shardId: number;
  readonly blockHeight: number;
  /** The shard layout's ids in order; the receipt goes to the first one it has not reached. */
  readonly shardIds: readonly number[];
  readonly config: RuntimeConfig;
}

/**
 * Applies a distribution receipt on this shard: stores the code unless a newer deploy of the same
 * identifier already arrived, and returns the receipt that carries it on to the next shard, if any,
 * with the compute storing the code took (deploy_global_contract_execution_base and per byte; none
 * when a newer deploy was already there).
 */
export function applyGlobalContractDistribution(
  ctx: DistributionContext,
  state: TrieUpdate,
  receipt: Receipt,
): { next: Receipt | null; compute: bigint } {
  const d = receipt.receipt as GlobalContractDistributionReceipt;
  const incoming = d.nonce ?? 0n;
  let compute = 0n;
  if (incoming >= readNonce(state, d.id)) {
    writeNonce(state, d.id, incoming);
    state.set(trieKeyGlobalContractCode(d.id), d.code);
    state.commit({ type: 'receipt_processing', receiptHash: receipt.receiptId });
    const c = ctx.config.compute;
    compute = c.globalContractDistributionBase + c.globalContractDistributionByte * BigInt(d.code.length);
  }
  const delivered = new Set<bigint>([...d.alreadyDeliveredShards, BigInt(ctx.shardId)]);
  const next = ctx.shardIds.find((s) => !delivered.has(BigInt(s)));
  if (next === undefined) return { next: null, compute };
  const alreadyDeliveredShards = [...delivered].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  return {
    next: {
      predecessorId: receipt.predecessorId,
      receiverId: receipt.receiverId,
      receiptId: receiptIdFromReceipt(receipt.receiptId, ctx.blockHeight, 0),
      receipt: { ...d, targetShard: BigInt(next), alreadyDeliveredShards },
    },
    compute,
  };
}
