// `query` request kinds against the state trie of one block (nearcore's state viewer).
import {
  type Account,
  accessKeyView,
  accountView,
  base58Encode,
  concatBytes,
  decodeAccessKey,
  decodeAccount,
  decodeGasKeyNonce,
  formatPublicKey,
  type GlobalContractIdentifier,
  globalContractIdentifierJson,
  HandlerError,
  parsePublicKey,
  sha256,
  toBase64,
  u64View,
} from '@nearlite/primitives';
import { resolveContract } from '@nearlite/runtime';
import {
  gasKeyNonceKey,
  parseTrieKey,
  trieKeyAccessKey,
  trieKeyAccessKeyPrefix,
  trieKeyAccount,
  trieKeyContractCode,
  trieKeyContractDataPrefix,
  trieKeyGlobalContractCode,
} from '@nearlite/trie';
import type { BlockHeader } from '../block_header.js';

/** nearcore's default trie_viewer_state_size_limit, in bytes of contract state. */
export const TRIE_VIEWER_STATE_SIZE_LIMIT = 50_000n;

/**
 * The state a query reads: the producer's trie at the block's state root, or a follower's history
 * as of that block (prefetched for the request, since its reads are async).
 */
export interface StateReader {
  get(key: Uint8Array): Uint8Array | undefined;
  /** Entries under `prefix`, ascending; with `after`, only those whose key is greater. */
  iterPrefix(prefix: Uint8Array, after?: Uint8Array): Iterable<[Uint8Array, Uint8Array]>;
  iterPrefixWithProof(prefix: Uint8Array): { entries: [Uint8Array, Uint8Array][]; proof: Uint8Array[] };
}

export interface QueryAt {
  readonly header: {
    readonly hash: BlockHeader['hash'];
    readonly lite: Pick<BlockHeader['lite'], 'height' | 'timestamp'> &
      Partial<Pick<BlockHeader['lite'], 'epochId'>>;
  };
  readonly trie: StateReader;
  /**
   * What a view call's random seed is made from (ApplyState.random_seed): the shard's state root at
   * the block, as nearcore's TrieViewer::call_function takes it; on a follower, which has no chunk's
   * post-state root, the header's prev_state_root, as read-rpc takes it.
   */
  readonly stateRoot: Uint8Array;
}

// Headers are cached objects, so their hashes are too: each view of the same block reuses its text.
const hashText = new WeakMap<Uint8Array, string>();

function blockFields(at: QueryAt): { block_height: number; block_hash: string } {
  const hash = at.header.hash;
  let text = hashText.get(hash);
  if (text === undefined) {
    text = base58Encode(hash);
    hashText.set(hash, text);
  }
  return { block_height: at.header.lite.height, block_hash: text };
}

/** The view with the block's fields added last, on the view object itself (a spread copies it). */
function withBlock<T extends object>(at: QueryAt, view: T): T & { block_height: number; block_hash: string } {
  const { block_height, block_hash } = blockFields(at);
  const out = view as T & { block_height: number; block_hash: string };
  out.block_height = block_height;
  out.block_hash = block_hash;
  return out;
}

export function loadAccount(at: QueryAt, accountId: string): Account {
  const raw = at.trie.get(trieKeyAccount(accountId));
  if (!raw) {
    throw new HandlerError(
      'UNKNOWN_ACCOUNT',
      { requested_account_id: accountId, ...blockFields(at) },
      `account ${accountId} does not exist while viewing`,
    );
  }
  return decodeAccount(raw);
}

export function viewAccount(at: QueryAt, accountId: string): object {
  return withBlock(at, accountView(loadAccount(at, accountId)));
}

/** nearcore's view_contract_code: the account's own code, or the global contract it uses. */
export function viewCode(at: QueryAt, accountId: string): object {
  const account = loadAccount(at, accountId);
  const code = resolveContract(at.trie, accountId, account).code();
  if (!code) {
    throw new HandlerError(
      'NO_CONTRACT_CODE',
      { contract_account_id: accountId, ...blockFields(at) },
      `Contract code for contract ID #${accountId} has never been observed on the node`,
    );
  }
  return { code_base64: toBase64(code), hash: base58Encode(sha256(code)), ...blockFields(at) };
}

/** nearcore's view_global_contract_code: `NO_GLOBAL_CONTRACT_CODE` until the code reached the shard. */
export function viewGlobalContractCode(at: QueryAt, id: GlobalContractIdentifier): object {
  const code = at.trie.get(trieKeyGlobalContractCode(id));
  if (!code) {
    const debug =
      id.kind === 'CodeHash'
        ? `CodeHash(${base58Encode(id.hash)})`
        : `AccountId(${JSON.stringify(id.accountId)})`;
    throw new HandlerError(
      'NO_GLOBAL_CONTRACT_CODE',
      { identifier: globalContractIdentifierJson(id), ...blockFields(at) },
      `Global contract code with identifier ${debug} has never been observed on the node`,
    );
  }
  return { code_base64: toBase64(code), hash: base58Encode(sha256(code)), ...blockFields(at) };
}

/** A page of a contract's state (newer nodes' `after_key_base64` and `limit`). */
export interface StatePage {
  readonly afterKey: Uint8Array | null;
  readonly limit: number | null;
}

/** nearcore's per-page caps: items, and bytes of full trie key and value checked before each one. */
const MAX_VIEW_STATE_PAGE_ITEMS = 10_000;
const MAX_VIEW_STATE_PAGE_BYTES = 50_000;

/**
 * Where a page of view_state ends: it takes entries until it holds `items` of them or `bytes` of
 * their full keys and values, and ends at the first entry found after that.
 */
export class StatePageMeter {
  private readonly items: number;
  private readonly bytes: number;
  private taken = 0;
  private used = 0;

  constructor(page: StatePage | undefined) {
    this.items = page
      ? Math.min(page.limit ?? MAX_VIEW_STATE_PAGE_ITEMS, MAX_VIEW_STATE_PAGE_ITEMS)
      : Infinity;
    this.bytes = page ? MAX_VIEW_STATE_PAGE_BYTES : Infinity;
  }

  /** The page ends before the next entry. */
  get full(): boolean {
    return this.taken >= this.items || this.used >= this.bytes;
  }

  take(key: Uint8Array, value: Uint8Array): void {
    this.taken++;
    this.used += key.length + value.length;
  }
}

/**
 * What view_state checks before it reads any of the state: the account exists and, unpaged, its
 * state is within `limit` (null: none). A reader that must fetch the state first (a follower's
 * history) asks this before it does, so a view refused for its size costs no scan of the state.
 */
export function checkViewState(
  at: QueryAt,
  accountId: string,
  limit: bigint | null = TRIE_VIEWER_STATE_SIZE_LIMIT,
  page?: StatePage,
): void {
  const account = loadAccount(at, accountId);
  // A paged view skips the whole-state limit: its pages are bounded instead.
  if (page) return;
  // nearcore subtracts only local code: a global contract's reference counts as state here.
  const code = at.trie.get(trieKeyContractCode(accountId));
  const stateSize = account.storageUsage - BigInt(code?.length ?? 0);
  if (limit !== null && stateSize > limit) {
    throw new HandlerError(
      'TOO_LARGE_CONTRACT_STATE',
      { contract_account_id: accountId, ...blockFields(at) },
      `State of contract ${accountId} is too large to be viewed`,
    );
  }
}

/**
 * The trie keys a view_state reads: the contract data's `base`, the `full` prefix under it, and a
 * page's bound as a trie key (`after`; every key read is above it).
 */
export function viewStateRange(
  accountId: string,
  prefix: Uint8Array,
  page?: StatePage,
): { readonly base: Uint8Array; readonly full: Uint8Array; readonly after: Uint8Array | undefined } {
  const base = trieKeyContractDataPrefix(accountId);
  const after = page?.afterKey ? concatBytes(base, page.afterKey) : undefined;
  return { base, full: concatBytes(base, prefix), after };
}

/**
 * `limit` null: no limit (config.json's trie_viewer_state_size_limit: null). A `page` is bounded by
 * nearcore's page caps instead of the whole-state limit.
 */
export function viewState(
  at: QueryAt,
  accountId: string,
  prefix: Uint8Array,
  includeProof: boolean,
  limit: bigint | null = TRIE_VIEWER_STATE_SIZE_LIMIT,
  page?: StatePage,
): object {
  checkViewState(at, accountId, limit, page);
  // The reader starts past the page's bound: a page costs its own keys, not all those before it.
  const { base, full, after } = viewStateRange(accountId, prefix, page);
  const values: { key: string; value: string }[] = [];
  const scan = includeProof
    ? at.trie.iterPrefixWithProof(full)
    : { entries: at.trie.iterPrefix(full, after), proof: [] };
  const meter = new StatePageMeter(page);
  let lastKey: string | undefined;
  for (const [k, v] of scan.entries) {
    if (meter.full) {
      // Another item exists: the page ends, naming its last key for the next.
      lastKey = values[values.length - 1]?.key;
      break;
    }
    meter.take(k, v);
    values.push({ key: toBase64(k.subarray(base.length)), value: toBase64(v) });
  }
  const out: Record<string, unknown> = { values };
  if (includeProof && scan.proof.length > 0) out.proof = scan.proof.map((n: Uint8Array) => toBase64(n));
  if (lastKey !== undefined) out.last_key = lastKey;
  return { ...out, ...blockFields(at) };
}

export function viewAccessKey(at: QueryAt, accountId: string, publicKey: string): object {
  const raw = at.trie.get(trieKeyAccessKey(accountId, parsePublicKey(publicKey)));
  if (!raw) {
    throw new HandlerError(
      'UNKNOWN_ACCESS_KEY',
      { public_key: publicKey, ...blockFields(at) },
      `access key ${publicKey} does not exist while viewing`,
    );
  }
  return withBlock(at, accessKeyView(decodeAccessKey(raw)));
}

/**
 * A gas key's nonces, by index (nearcore's view_gas_key_nonces). A key that is not a gas key is as
 * unknown as one that does not exist.
 */
export function viewGasKeyNonces(at: QueryAt, accountId: string, publicKey: string): object {
  const keyKey = trieKeyAccessKey(accountId, parsePublicKey(publicKey));
  const raw = at.trie.get(keyKey);
  const gasKey = raw ? decodeAccessKey(raw).permission.gasKey : undefined;
  if (!gasKey) {
    throw new HandlerError(
      'UNKNOWN_GAS_KEY',
      { public_key: publicKey, ...blockFields(at) },
      `Gas key for public key ${publicKey} does not exist while viewing`,
    );
  }
  const nonces: (number | bigint)[] = [];
  for (let i = 0; i < gasKey.numNonces; i++) {
    const v = at.trie.get(gasKeyNonceKey(keyKey, i));
    if (!v) {
      const message = `gas key nonce at index ${i} does not exist for account ${accountId} and public key ${publicKey}`;
      throw HandlerError.internal(message);
    }
    nonces.push(u64View(decodeGasKeyNonce(v)));
  }
  return { nonces, ...blockFields(at) };
}

export function viewAccessKeyList(at: QueryAt, accountId: string): object {
  const prefix = trieKeyAccessKeyPrefix(accountId);
  const keys: object[] = [];
  for (const [k, v] of at.trie.iterPrefix(prefix)) {
    const key = parseTrieKey(k);
    if (key.col !== 'access_key') continue; // one of a gas key's nonces
    keys.push({ public_key: formatPublicKey(key.publicKey), access_key: accessKeyView(decodeAccessKey(v)) });
  }
  return { keys, ...blockFields(at) };
}
