// The runtime and VM that apply a chain's chunks, at the parameters of the protocol version the node
// reports. Its own module: the chain thread loads it and nothing of the RPC side.
import type { ChunkApplier, Genesis } from '@nearlite/chain';
import {
  DEFAULT_RUNTIME_CONFIG_VIEW,
  parseRuntimeConfig,
  Runtime,
  VmFunctionCallRunner,
} from '@nearlite/runtime';
import { ContractCache } from '@nearlite/vm';

/** The runtime parameters this node runs at (nearcore's protocol version it reports). */
export const RUNTIME_CONFIG = parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW);

export const STORAGE_USAGE_CONFIG = {
  numBytesAccount: RUNTIME_CONFIG.fees.storage_usage_config.num_bytes_account,
  numExtraBytesRecord: RUNTIME_CONFIG.fees.storage_usage_config.num_extra_bytes_record,
};

/** The runtime and VM that apply a chain's chunks (on the thread that produces its blocks). */
export function createApplier(genesis: Genesis): ChunkApplier {
  // Every epoch of this chain has the genesis validators (chain/src/epoch.ts), so receipts see this set.
  const validators = new Map(genesis.config.validators.map((v) => [v.accountId, v.amount]));
  const runtime = new Runtime({
    config: RUNTIME_CONFIG,
    chainId: genesis.config.chainId,
    validators,
    // A contract is prepared once per code hash and its compiled module kept.
    functionCall: new VmFunctionCallRunner(new ContractCache()),
  });
  return {
    prepareTransactions: (state, txs, gasPrice, height, verdicts, limits) =>
      runtime.prepareTransactions(state, txs, gasPrice, height, verdicts, limits),
    applyChunk: (ctx, state, txs, incoming) => {
      const r = runtime.applyChunk(ctx, state, txs, incoming);
      return { ...r, validatorProposals: r.validatorProposals };
    },
  };
}
