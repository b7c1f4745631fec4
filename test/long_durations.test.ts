// Durations past Node's timer limit (2^31 - 1 ms, ~24.8 days) are waited for, as nearcore's Durations
// are: such a timer would otherwise fire after 1 ms, producing a block every millisecond and ending
// every transaction wait at once.
import { join } from 'node:path';
import t from 'tap';
import { editProductionDelays, editRpc, initHome, rawRpc, startNode } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

const THIRTY_DAYS_MS = 30 * 24 * 3600 * 1000;

t.test('a block time and a polling timeout of 30 days', async (t) => {
  const home = join(tempDir(t), 'home');
  initHome(home);
  editProductionDelays(home, THIRTY_DAYS_MS, THIRTY_DAYS_MS);
  editRpc(home, { polling_config: { polling_timeout: { secs: THIRTY_DAYS_MS / 1000, nanos: 0 } } });
  const node = await startNode(home);
  t.teardown(() => node.stop());

  // A transaction no block holds: its wait lasts until a block or the polling timeout.
  const waiting = rawRpc(node.url, 'tx', {
    tx_hash: '11111111111111111111111111111111',
    sender_account_id: 'test.near',
    wait_until: 'FINAL',
  });
  let answered = false;
  void waiting.then(() => {
    answered = true;
  });
  await new Promise((r) => setTimeout(r, 1500));
  t.notOk(answered, 'the wait is not cut short');
  const head = await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' });
  t.equal(head.body.result?.header.height, 0, 'no block is produced before its time');
  t.notMatch(node.logs(), /TimeoutOverflowWarning/);
  t.equal(await node.stop(), 0);
  const answer = await waiting;
  t.equal(answer.status, 408, 'the stop answers the wait');
});
