// The sandbox methods' own handling of a chain that fails, with the chain replaced by a stand-in:
// what reaches the chain itself is covered end to end in test/sandbox_gating.test.ts.
import type { ChainHandle } from '@nearlite/chain';
import t from 'tap';
import { sandboxMethods } from '../src/sandbox.js';

const record = {
  Account: {
    account_id: 'a.near',
    account: { amount: '1', locked: '0', code_hash: '11111111111111111111111111111111', storage_usage: 182 },
  },
};

t.test('a patch whose block fails is answered with the failure, and nothing goes unhandled', async (t) => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  t.teardown(() => void process.off('unhandledRejection', onUnhandled));
  // The chain refuses the patch at once and takes a while to finish the block that carried it:
  // until the patch's promise is awaited, its rejection has no handler of its own.
  const failure = new Error('the block carrying the patch failed');
  const chain = {
    canProduce: true,
    genesis: { config: { epochLength: 10 } },
    patchState: () => Promise.reject(failure),
    produceBlock: () => new Promise((_, reject) => setTimeout(() => reject(failure), 50)),
  } as unknown as ChainHandle;
  const sandbox = sandboxMethods(chain, 1000);
  await t.rejects(sandbox.sandboxPatchState([record]), failure, 'the caller gets the block’s error');
  await new Promise((r) => setTimeout(r, 20));
  t.same(unhandled, [], 'no rejection went unhandled');
});
