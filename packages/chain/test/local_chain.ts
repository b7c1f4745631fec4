// An in-process chain of one shard and one validator (test.near), with protocol 86's runtime: what a
// test of the chain's own code runs blocks on without a node.
import {
  Chain,
  type ChunkApplier,
  generateKeyFile,
  makeLocalnetGenesis,
  parseGenesis,
  signerFromKeyFile,
} from '@nearlite/chain';
import {
  DEFAULT_RUNTIME_CONFIG_VIEW,
  parseRuntimeConfig,
  Runtime,
  type RuntimeConfig,
} from '@nearlite/runtime';
import { Store } from '@nearlite/store';

export async function openLocalChain(o: {
  chainId: string;
  epochLength: number;
  /** Edits the genesis JSON before it is parsed. */
  tweak?: (raw: Record<string, unknown>) => void;
  /** A store to reopen; a new one in memory otherwise. */
  store?: Store;
}): Promise<{ chain: Chain; store: Store; config: RuntimeConfig }> {
  const key = generateKeyFile('test.near');
  const raw = makeLocalnetGenesis({
    chainId: o.chainId,
    numShards: 1,
    epochLength: o.epochLength,
    validatorAccountId: 'test.near',
    validatorPublicKey: key.public_key,
    protocolVersion: 86,
  });
  o.tweak?.(raw);
  const genesis = parseGenesis(raw);
  const config = parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW);
  const runtime = new Runtime({
    config,
    chainId: genesis.config.chainId,
    validators: new Map(genesis.config.validators.map((v) => [v.accountId, v.amount])),
  });
  const applier: ChunkApplier = {
    applyChunk: (ctx, state, txs, incoming) => runtime.applyChunk(ctx, state, txs, incoming),
  };
  const store = o.store ?? (await Store.memory());
  const chain = await Chain.open({
    store,
    genesis,
    signer: signerFromKeyFile(key),
    applier,
    storageUsageConfig: { numBytesAccount: 100n, numExtraBytesRecord: 40n },
  });
  return { chain, store, config };
}
