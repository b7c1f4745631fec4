// A node stopped while clients wait on transactions answers them at once with nearcore's
// TIMEOUT_ERROR (no block will come to answer them otherwise), rather than hold its stop for the
// whole polling timeout.
import { join } from 'node:path';
import { actions as A } from 'near-api-js';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { editRpc, initHome, type RunningNode, rawRpc, startNode, waitForHeight } from './helpers/node.js';
import { TX_TIMEOUT } from './helpers/rpc_errors.js';
import { signFromValidator } from './helpers/signed_tx.js';

/** Stops `node` while `waiting` is under way: the client is answered TIMEOUT_ERROR and the stop is clean and prompt. */
async function stopWhileWaiting(
  t: Tap.Test,
  node: RunningNode,
  waiting: Promise<{ status: number; body: string }>,
  notWhat: string,
): Promise<void> {
  await new Promise((r) => setTimeout(r, 300));
  const started = Date.now();
  const exited = node.stop();
  const answer = await waiting;
  t.equal(answer.status, 408);
  t.same(JSON.parse(answer.body).error, TX_TIMEOUT, "nearcore's TIMEOUT_ERROR");
  t.equal(await exited, 0, 'a clean stop');
  const took = Date.now() - started;
  t.ok(took < 20_000, `the stop took ${took} ms, ${notWhat}`);
}

t.test('a stop answers the clients waiting on transactions and ends promptly', async (t) => {
  // A polling timeout far longer than the stop may take.
  const chain = await localChain(t, {
    blockTimeMs: 1000,
    rpc: { polling_config: { polling_timeout: { secs: 40, nanos: 0 } } },
  });
  const { node, key } = chain;
  const { base64: b64 } = await signFromValidator(node, key, 'test.near', [A.transfer(1n)]);
  // FINAL takes blocks a second apart to reach: the client is still waiting when the node stops.
  const waiting = rawRpc(node.url, 'send_tx', { signed_tx_base64: b64, wait_until: 'FINAL' });
  await stopWhileWaiting(t, node, waiting, 'not the 40 s polling timeout nor the 72 s keep-alive');
});

t.test("a follower's stop answers the clients waiting on transactions as well", async (t) => {
  const chain = await localChain(t, { blockTimeMs: 200 });
  const home = join(chain.home, 'follower');
  initHome(home, ['--genesis', join(chain.home, 'genesis.json')]);
  editRpc(home, { polling_config: { polling_timeout: { secs: 40, nanos: 0 } } });
  const follower = await startNode(home, ['--follow', chain.node.url]);
  await waitForHeight(follower, 3);
  // A transaction no followed block holds: the follower waits for it.
  const waiting = rawRpc(follower.url, 'tx', {
    tx_hash: '11111111111111111111111111111111',
    sender_account_id: 'test.near',
    wait_until: 'FINAL',
  });
  await stopWhileWaiting(t, follower, waiting, 'not the 40 s polling timeout');
});
