// A one-validator localnet chain over a store, producing empty blocks on demand: what a tool or a
// test embedding the chain needs when it does not run contracts.
import type { Store } from '@nearlite/store';
import { Chain } from '../chain.js';
import { NOOP_CHUNK_APPLIER } from '../chunk_applier.js';
import { parseGenesis } from './config.js';
import { generateKeyFile, type KeyFile, signerFromKeyFile } from './keys.js';
import { makeLocalnetGenesis } from './localnet.js';

export interface LocalnetChainOptions {
  readonly numShards?: number;
  readonly epochLength?: number;
  /** The validator's key; a new one when absent. */
  readonly key?: KeyFile;
  /** Pooled transactions a chunk considers at most (ChainOptions). */
  readonly maxTransactionsPerChunk?: number;
}

/** Opens (or creates) a localnet chain `unit` validated by `test.near`, with no chunk applier. */
export async function openLocalnetChain(store: Store, o: LocalnetChainOptions = {}): Promise<Chain> {
  const key = o.key ?? generateKeyFile('test.near');
  const genesis = parseGenesis(
    makeLocalnetGenesis({
      chainId: 'unit',
      numShards: o.numShards ?? 2,
      epochLength: o.epochLength ?? 5,
      validatorAccountId: 'test.near',
      validatorPublicKey: key.public_key,
      protocolVersion: 85,
    }),
  );
  return Chain.open({
    store,
    genesis,
    signer: signerFromKeyFile(key),
    applier: NOOP_CHUNK_APPLIER,
    storageUsageConfig: { numBytesAccount: 100n, numExtraBytesRecord: 40n },
    ...(o.maxTransactionsPerChunk === undefined
      ? {}
      : { maxTransactionsPerChunk: o.maxTransactionsPerChunk }),
  });
}
