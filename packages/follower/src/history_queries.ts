// `query` over a follower's history: each request type prefetches the keys and prefixes its view
// reads, as of the block, and runs the chain's own view over them (prefetched_state.ts); a contract's
// view call runs on the view workers. State the history does not hold (state_from.ts) and stakes it
// cannot work out are asked of --upstream-rpc at the same block.
import {
  checkViewState,
  prepareViewCall,
  type QueryAt,
  type ShardLayout,
  viewAccessKey,
  viewAccessKeyList,
  viewAccount,
  viewCode,
  viewGasKeyNonces,
  viewGlobalContractCode,
  viewState,
  viewStateRange,
} from '@nearlite/chain';
import type { BlockReference, QueryRequest } from '@nearlite/jsonrpc';
import {
  base58Decode,
  bytesEqual,
  decodeAccount,
  type GlobalContractIdentifier,
  parsePublicKey,
  ZERO_HASH,
} from '@nearlite/primitives';
import {
  trieKeyAccessKey,
  trieKeyAccessKeyPrefix,
  trieKeyAccount,
  trieKeyContractCode,
} from '@nearlite/trie';
import type { FollowerBackendOptions } from './backend_options.js';
import { resolveQueryBlock } from './block_ref.js';
import { GlobalCode, giveAccountsGlobalCode, giveGlobalCode } from './global_code.js';
import type { HeaderFactsCache } from './header_facts.js';
import type { HistoryReader, StoredBlock } from './history_reader.js';
import { ranOwnParameters } from './own_parameters.js';
import { PrefetchedState } from './prefetched_state.js';
import { StateNotHeld } from './state_from.js';
import { proofUnavailable, StakesNotKnown } from './unavailable.js';
import { upstreamQueryParams } from './upstream_query.js';
import type { FollowerValidatorFacts } from './validator_facts.js';

/**
 * The account's contract code, after its account: absent without reading it when there is no account
 * or it names no local code (a history that begins after the genesis may not hold the code key of
 * an account it holds); with `read` false, only that absence is told, and a view worker reads the
 * code itself.
 */
async function codeOf(state: PrefetchedState, id: string, read = true): Promise<void> {
  const raw = state.get(trieKeyAccount(id));
  // No account (held as absent: the read above would have refused otherwise) has no code either.
  if (!raw || bytesEqual(decodeAccount(raw).codeHash, ZERO_HASH)) state.set(trieKeyContractCode(id), null);
  else if (read) await state.key(trieKeyContractCode(id));
}

export class HistoryQueries {
  private readonly globalCode: GlobalCode | null;

  constructor(
    private readonly o: FollowerBackendOptions,
    private readonly facts: HeaderFactsCache,
    private readonly validatorFacts: FollowerValidatorFacts,
    private readonly layout: ShardLayout,
  ) {
    this.globalCode = o.upstream ? new GlobalCode(o.upstream) : null;
  }

  private get history(): HistoryReader {
    return this.o.history;
  }

  private at(b: StoredBlock, state: PrefetchedState): QueryAt {
    const f = this.facts.of(b);
    return {
      header: { hash: b.hash, lite: { height: f.height, timestamp: f.timestamp } },
      trie: state,
      // Decoded only for a view call, the one query that reads it.
      get stateRoot() {
        return base58Decode(f.prevStateRoot);
      },
    };
  }

  private async globalCodeView(b: StoredBlock, state: PrefetchedState, id: GlobalContractIdentifier) {
    await giveGlobalCode(this.globalCode, b.hash, state, id);
    return viewGlobalContractCode(this.at(b, state), id);
  }

  async query(ref: BlockReference, req: QueryRequest): Promise<object> {
    const b = await resolveQueryBlock(this.history, ref, this.history.firstHeight(), () =>
      // Every shard holds a global contract: by account on the owner's shard, by hash on the first.
      req.requestType === 'view_global_contract_code'
        ? this.layout.shardIds[0]!
        : this.layout.accountIdToShardId(req.accountId),
    );
    try {
      return await this.queryAt(b, req);
    } catch (err) {
      // State from before this node followed the chain, and stakes it cannot work out, are the
      // upstream's, at the same block.
      if (!(err instanceof StateNotHeld || err instanceof StakesNotKnown) || !this.o.upstream) throw err;
      return this.o.upstream.call('query', upstreamQueryParams(req, b.hash));
    }
  }

  private async queryAt(b: StoredBlock, req: QueryRequest): Promise<object> {
    const state = new PrefetchedState(this.history, b.height);
    if (req.requestType === 'view_global_contract_code')
      return this.globalCodeView(b, state, { kind: 'CodeHash', hash: req.codeHash });
    if (req.requestType === 'view_global_contract_code_by_account_id')
      return this.globalCodeView(b, state, { kind: 'AccountId', accountId: req.accountId });
    const id = req.accountId;
    switch (req.requestType) {
      case 'view_account':
        await state.key(trieKeyAccount(id));
        return viewAccount(this.at(b, state), id);
      case 'view_code':
        await state.key(trieKeyAccount(id));
        await codeOf(state, id);
        await giveAccountsGlobalCode(this.globalCode, b.hash, state, id);
        return viewCode(this.at(b, state), id);
      case 'view_state': {
        if (req.includeProof) return this.proofFromUpstream(upstreamQueryParams(req, b.hash));
        await state.key(trieKeyAccount(id));
        // The code's size counts against the limit of an unpaged view only.
        if (!req.page) await codeOf(state, id);
        // Refused for its size before the state is read: a contract's history can hold gigabytes.
        checkViewState(this.at(b, state), id, this.o.stateSizeLimit, req.page);
        const { full, after } = viewStateRange(id, req.prefix, req.page);
        await (req.page ? state.page(full, after, req.page) : state.prefix(full));
        return viewState(this.at(b, state), id, req.prefix, false, this.o.stateSizeLimit, req.page);
      }
      case 'view_access_key':
        await state.key(trieKeyAccessKey(id, parsePublicKey(req.publicKey)));
        return viewAccessKey(this.at(b, state), id, req.publicKey);
      case 'view_access_key_list':
        await state.prefix(trieKeyAccessKeyPrefix(id));
        return viewAccessKeyList(this.at(b, state), id);
      case 'view_gas_key_nonces':
        // The key's row and its nonces' rows, which follow it.
        await state.prefix(trieKeyAccessKey(id, parsePublicKey(req.publicKey)));
        return viewGasKeyNonces(this.at(b, state), id, req.publicKey);
      case 'call_function': {
        await state.key(trieKeyAccount(id));
        await codeOf(state, id, false);
        await giveAccountsGlobalCode(this.globalCode, b.hash, state, id);
        const { stakes, known } = await this.validatorFacts.stakesAt(b.height);
        const prepared = prepareViewCall(
          this.at(b, state),
          this.o.genesis,
          id,
          req.methodName,
          req.args,
          stakes,
        );
        // A block of NEAR's own networks ran its version's parameters, which the call runs under.
        const version = this.facts.of(b).protocolVersion;
        const run = ranOwnParameters(this.o.genesis.config, version)
          ? prepared
          : { ...prepared, input: { ...prepared.input, blockProtocolVersion: version } };
        return this.o.runView(run, (key) => state.read(key), b.height, state.givenRows(), known);
      }
    }
  }

  /** A proof needs trie nodes, which the stream does not carry: the upstream's, at this block. */
  private proofFromUpstream(params: Record<string, unknown>): Promise<object> {
    if (!this.o.upstream) throw proofUnavailable();
    return this.o.upstream.call('query', params);
  }
}
