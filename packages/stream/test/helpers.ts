// A real chain on LevelDB for the stream's tests: one validator producing empty blocks on demand.
import { join } from 'node:path';
import { type Chain, openLocalnetChain } from '@nearlite/chain';
import { Store } from '@nearlite/store';
import type { Test } from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';

export async function openLocalChain(
  test: Test,
  o: { numShards?: number; epochLength?: number } = {},
): Promise<{ chain: Chain; store: Store }> {
  const store = await Store.open(join(tempDir(test), 'data'));
  test.teardown(() => store.close());
  const chain = await openLocalnetChain(store, {
    numShards: o.numShards ?? 2,
    epochLength: o.epochLength ?? 100,
  });
  return { chain, store };
}
