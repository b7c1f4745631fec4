// What a contract writes — logs, return values, storage keys and values — reaches clients exactly as
// written, and can never change the shape of an answer, whatever bytes it holds: on the producer, and
// on followers that serve the producer's published JSON again, from LevelDB and from PostgreSQL.
import { join } from 'node:path';
import t from 'tap';
import { compileContract } from './helpers/asc.js';
import { deployedAccount, localChain } from './helpers/chain.js';
import { startCli } from './helpers/cli_process.js';
import { settledTop } from './helpers/follow_compare.js';
import { type RunningNode, startFollower, waitForHeight } from './helpers/node.js';
import { startPostgres, storeFlags } from './helpers/postgres.js';

const NEAR = 10n ** 24n;
const TGAS = 10n ** 12n;
const HOSTILE = [
  '\u0000nearlite:bigint:42',
  '\u0000nearlite:raw:0',
  '\u0000nl:0',
  '\u0000nl:1',
  '"},"result":{"x":1}',
  'a\u0000b\u0000',
];

// A follower takes the producer's published JSON apart and serves it again, and runs view calls of its
// own; PostgreSQL keeps no NUL in its text. The same bytes must come back from each of them.
t.test('hostile contract output comes back exactly, from the producer and every follower', async (t) => {
  const code = await compileContract('echo');
  // The server first; the nodes on it stop before it does.
  const server = await startPostgres();
  const onServer: RunningNode[] = [];
  t.teardown(async () => {
    for (const n of onServer) await n.stop();
    await server.stop();
  });
  const store = await storeFlags(server);
  const { node, provider, root, home } = await localChain(t, { archive: true });
  await deployedAccount({ provider, root }, 'echo.test.near', code, 10n * NEAR);

  const sentTxs: string[] = [];
  for (const s of HOSTILE) {
    const sent = await root.callFunctionRaw({
      contractId: 'echo.test.near',
      methodName: 'keep',
      args: Buffer.from(s),
      gas: 30n * TGAS,
    });
    sentTxs.push(sent.transaction_outcome.id);
  }
  const top = await settledTop(node);

  const follower = await startFollower(home, node.url, ['--archive']);
  t.teardown(() => follower.stop());
  const pgFollower = await startFollower(home, node.url, ['--archive', ...store], 'follower-pg');
  onServer.push(pgFollower);
  await waitForHeight(follower, top, 60_000);
  await waitForHeight(pgFollower, top, 60_000);
  const front = await startCli([
    'serve',
    '--home',
    join(home, 'follower-pg'),
    '--rpc-addr',
    '127.0.0.1:0',
    ...store,
  ]);
  onServer.push(front);

  const nodes = [
    ['producer', node],
    ['follower', follower],
    ['postgres follower', pgFollower],
    ['postgres serve', front],
  ] as const;
  for (const [who, n] of nodes) {
    for (const [i, s] of HOSTILE.entries()) {
      const args = Buffer.from(s).toString('base64');
      const view = await n.rpc<{ logs: string[]; result: number[] }>('query', {
        request_type: 'call_function',
        account_id: 'echo.test.near',
        method_name: 'say',
        args_base64: args,
        block_id: top,
      });
      t.same(view.body.result?.logs, [s], `${who}: view log ${JSON.stringify(s)}`);
      t.same(view.body.result?.result, [...Buffer.from(s)], `${who}: view result bytes`);
      for (const method of ['tx', 'EXPERIMENTAL_tx_status']) {
        const r = await n.rpc<{
          status: { SuccessValue: string };
          receipts_outcome: { outcome: { logs: string[] } }[];
        }>(method, { tx_hash: sentTxs[i], sender_account_id: 'test.near', wait_until: 'FINAL' });
        t.notOk(r.body.error, `${who}: ${method} answers`);
        t.equal(r.body.result?.status.SuccessValue, args, `${who}: ${method} return value`);
        t.same(
          r.body.result?.receipts_outcome[0]?.outcome.logs,
          [s],
          `${who}: ${method} log ${JSON.stringify(s)}`,
        );
      }
    }
    const state = await n.rpc<{ values: { key: string; value: string }[] }>('query', {
      request_type: 'view_state',
      account_id: 'echo.test.near',
      prefix_base64: '',
      block_id: top,
    });
    const kept = (state.body.result?.values ?? []).map((v) => Buffer.from(v.key, 'base64').toString());
    t.same(kept.sort(), [...HOSTILE].sort(), `${who}: every key stored and served`);
  }
});
