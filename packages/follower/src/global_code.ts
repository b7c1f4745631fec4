// Global contract code for a follower's views, from its upstream RPC. The stream carries no global
// contract code (a distribution receipt's view names the code by its hash only), so an account using
// a global contract would otherwise have no code here. The code an account runs at a block is the one
// its own shard holds there (a new deployment reaches the shards one block after another), which is
// what the upstream's `view_code` of that account answers (code by hash is the same everywhere it is,
// and is asked for by its hash at the upstream's final block). Every answer is checked before use: the
// code must hash to what the upstream says it is, and code named by its hash to that hash. Code by
// hash never changes and is kept; code by its deployer's account is asked again for each block (the
// deployer may deploy anew) and kept by its hash.
import { RpcError } from '@nearlite/jsonrpc';
import {
  accountContract,
  base58Encode,
  bytesEqual,
  decodeAccount,
  fromBase64,
  type GlobalContractIdentifier,
  globalIdentifierOf,
  HandlerError,
  isJsonObject,
  sha256,
  toHex,
} from '@nearlite/primitives';
import { LruCache } from '@nearlite/store';
import { trieKeyAccount, trieKeyGlobalContractCode } from '@nearlite/trie';
import type { PrefetchedState } from './prefetched_state.js';
import { globalCodeUnavailable } from './unavailable.js';
import type { UpstreamRpc } from './upstream.js';

/** Bytes of code kept, by hash: mainnet's contracts are up to a few hundred kB each. */
const CODE_CACHE_BYTES = 64 * 1024 * 1024;
/** Deployer account and block → the hash of its code there. */
const BY_ACCOUNT_ENTRIES = 4096;

function upstreamCodeError(what: string, message: string): HandlerError {
  return HandlerError.internal(`the upstream RPC could not give ${what}: ${message}`);
}

function describe(id: GlobalContractIdentifier): string {
  return id.kind === 'CodeHash'
    ? `global contract code ${base58Encode(id.hash)}`
    : `the global contract code deployed by ${id.accountId}`;
}

/** Code the upstream sent, checked, with its hash (hex). */
type Answer = { readonly code: Uint8Array; readonly hash: string } | null;

export class GlobalCode {
  private readonly byHash = new LruCache<string, Uint8Array>(CODE_CACHE_BYTES, (c) => c.length);
  private readonly byAccount = new LruCache<string, string>(BY_ACCOUNT_ENTRIES);

  constructor(private readonly upstream: UpstreamRpc) {}

  /** The code `id` (which `accountId` uses) is for that account at the block, or null: none there. */
  async forAccount(
    blockHash: Uint8Array,
    accountId: string,
    id: GlobalContractIdentifier,
  ): Promise<Uint8Array | null> {
    const block = base58Encode(blockHash);
    const at = `${accountId}@${block}`;
    const hash = id.kind === 'CodeHash' ? toHex(id.hash) : this.byAccount.get(at);
    const kept = hash && this.byHash.get(hash);
    if (kept) return kept;
    // Code by hash never changes and never leaves a shard: asked for at the upstream's final block,
    // which a non-archival upstream still has however old the block asked about.
    const byHash =
      id.kind === 'CodeHash' &&
      (await this.ask(id, 'NO_GLOBAL_CONTRACT_CODE', {
        request_type: 'view_global_contract_code',
        code_hash: base58Encode(id.hash),
        finality: 'final',
      }));
    const got =
      byHash ||
      (await this.ask(id, 'NO_CONTRACT_CODE', {
        request_type: 'view_code',
        account_id: accountId,
        block_id: block,
      }));
    if (!got) return null;
    this.byHash.set(got.hash, got.code);
    if (id.kind === 'AccountId') this.byAccount.set(at, got.hash);
    return got.code;
  }

  /** nearcore's view_global_contract_code(_by_account_id) at the block: the code, or null. */
  async identified(blockHash: Uint8Array, id: GlobalContractIdentifier): Promise<Uint8Array | null> {
    const block_id = base58Encode(blockHash);
    const params =
      id.kind === 'CodeHash'
        ? { request_type: 'view_global_contract_code', code_hash: base58Encode(id.hash), block_id }
        : { request_type: 'view_global_contract_code_by_account_id', account_id: id.accountId, block_id };
    return (await this.ask(id, 'NO_GLOBAL_CONTRACT_CODE', params))?.code ?? null;
  }

  /** One `query` of the upstream; `none`: the error cause that means there is no such code. */
  private async ask(id: GlobalContractIdentifier, none: string, params: object): Promise<Answer> {
    let answer: unknown;
    try {
      answer = JSON.parse((await this.upstream.call('query', params)).json);
    } catch (err) {
      if (err instanceof RpcError) {
        if (err.body.cause.name === none) return null;
        throw upstreamCodeError(describe(id), err.body.message);
      }
      if (err instanceof HandlerError) throw upstreamCodeError(describe(id), err.message);
      throw err;
    }
    return this.checked(id, answer);
  }

  private checked(id: GlobalContractIdentifier, answer: unknown): NonNullable<Answer> {
    const what = describe(id);
    if (!isJsonObject(answer) || typeof answer.code_base64 !== 'string' || typeof answer.hash !== 'string')
      throw upstreamCodeError(what, 'its answer has no code_base64 and hash');
    let code: Uint8Array;
    try {
      code = fromBase64(answer.code_base64);
    } catch {
      throw upstreamCodeError(what, 'its code_base64 is not base64');
    }
    const hash = sha256(code);
    if (base58Encode(hash) !== answer.hash || (id.kind === 'CodeHash' && !bytesEqual(hash, id.hash)))
      throw upstreamCodeError(what, `the code it sent hashes to ${base58Encode(hash)}`);
    return { code, hash: toHex(hash) };
  }
}

/**
 * Gives a query's state the code `id` names at the block (view_global_contract_code and its by-account
 * form). Without an upstream the query is refused, rather than answered as if there were no code.
 */
export async function giveGlobalCode(
  code: GlobalCode | null,
  blockHash: Uint8Array,
  state: PrefetchedState,
  id: GlobalContractIdentifier,
): Promise<void> {
  if (!code) throw globalCodeUnavailable();
  state.set(trieKeyGlobalContractCode(id), await code.identified(blockHash, id));
}

/** Gives a query's state the code of the global contract an account uses, if it uses one. */
export async function giveAccountsGlobalCode(
  code: GlobalCode | null,
  blockHash: Uint8Array,
  state: PrefetchedState,
  accountId: string,
): Promise<void> {
  const account = state.get(trieKeyAccount(accountId));
  const id = account && globalIdentifierOf(accountContract(decodeAccount(account)));
  if (!id) return;
  if (!code) throw globalCodeUnavailable();
  state.set(trieKeyGlobalContractCode(id), await code.forAccount(blockHash, accountId, id));
}
