// `query call_function` up to the contract run: the block and account it runs against, the VM's
// block context (the block's epoch), and the state reader. Where it runs (a worker) is the node's.
import { base58Encode, decodeAccount, HandlerError } from '@nearlite/primitives';
import type { ViewCallInput } from '@nearlite/runtime';
import { trieKeyAccount } from '@nearlite/trie';
import { epochHeightOf } from '../epoch.js';
import type { Genesis } from '../genesis/config.js';
import type { QueryAt } from './query.js';

export interface PreparedViewCall {
  readonly input: Omit<ViewCallInput, 'config' | 'state' | 'cache' | 'meter'>;
  readonly get: (key: Uint8Array) => Uint8Array | undefined;
}

export function prepareViewCall(
  at: QueryAt,
  genesis: Genesis,
  accountId: string,
  methodName: string,
  args: Uint8Array,
  /** The block's epoch's validators and stakes; absent: the genesis validators. */
  validators?: ReadonlyMap<string, bigint>,
): PreparedViewCall {
  const raw = at.trie.get(trieKeyAccount(accountId));
  const blockHash = base58Encode(at.header.hash);
  if (!raw) {
    throw new HandlerError(
      'UNKNOWN_ACCOUNT',
      { requested_account_id: accountId, block_height: at.header.lite.height, block_hash: blockHash },
      `account ${accountId} does not exist while viewing`,
    );
  }
  const cfg = genesis.config;
  return {
    input: {
      accountId,
      account: decodeAccount(raw),
      methodName,
      args,
      blockHeight: at.header.lite.height,
      blockHash,
      blockTimestamp: at.header.lite.timestamp,
      epochHeight: epochHeightOf(at.header.lite.height, cfg.genesisHeight, cfg.epochLength),
      chainId: cfg.chainId,
      stateRoot: at.stateRoot,
      validators: validators ?? new Map(cfg.validators.map((v) => [v.accountId, v.amount])),
    },
    get: (key) => at.trie.get(key),
  };
}
