// A real chain on LevelDB for the stream's tests: one validator producing empty blocks on demand.
import { join } from 'node:path';
import {
  Chain,
  generateKeyFile,
  makeLocalnetGenesis,
  NOOP_CHUNK_APPLIER,
  parseGenesis,
  signerFromKeyFile,
} from '@nearlite/chain';
import { Store } from '@nearlite/store';
import type { Test } from 'tap';

export async function openLocalChain(
  test: Test,
  o: { numShards?: number; epochLength?: number } = {},
): Promise<{ chain: Chain; store: Store }> {
  const key = generateKeyFile('test.near');
  const genesis = parseGenesis(
    makeLocalnetGenesis({
      chainId: 'unit',
      numShards: o.numShards ?? 2,
      epochLength: o.epochLength ?? 100,
      validatorAccountId: 'test.near',
      validatorPublicKey: key.public_key,
      protocolVersion: 85,
    }),
  );
  const store = await Store.open(join(test.testdir(), 'data'));
  test.teardown(() => store.close());
  const chain = await Chain.open({
    store,
    genesis,
    signer: signerFromKeyFile(key),
    applier: NOOP_CHUNK_APPLIER,
    storageUsageConfig: { numBytesAccount: 100n, numExtraBytesRecord: 40n },
  });
  return { chain, store };
}
