// A chain that stops producing ends every client's wait on a transaction with nearcore's
// TIMEOUT_ERROR at once, and answers a wait begun after it the same way: no block will come.
import { runtimeTxCodecs, TxService } from '@nearlite/chain';
import t from 'tap';
import { openLocalChain } from './local_chain.js';

async function service() {
  const { chain, config } = await openLocalChain({ chainId: 'test-chain-stop1', epochLength: 100 });
  // A wait far longer than the test: only the stop can end it in time.
  return { chain, txs: new TxService({ chain, codecs: runtimeTxCodecs(chain, config), timeoutMs: 600_000 }) };
}

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([
    p.then(
      () => 'settled',
      () => 'settled',
    ),
    new Promise((r) => setTimeout(() => r('waiting'), ms)),
  ]);

t.test('the stop answers the waits, and those that come after it', async (t) => {
  const { chain, txs } = await service();
  const unknown = { txHash: new Uint8Array(32).fill(9), senderAccountId: 'test.near' };
  const before = txs.txStatus(unknown, 'FINAL', false);
  before.catch(() => {});
  t.equal(await within(before, 200), 'waiting', 'an unknown transaction is waited for');
  chain.events.emit('stopped');
  await t.rejects(before, { cause: 'TIMEOUT_ERROR' }, "nearcore's TIMEOUT_ERROR, at once");
  const after = txs.txStatus(unknown, 'EXECUTED_OPTIMISTIC', false);
  after.catch(() => {});
  t.equal(await within(after, 2000), 'settled', 'a wait begun after the stop is not held');
  await t.rejects(after, { cause: 'TIMEOUT_ERROR' });
});
