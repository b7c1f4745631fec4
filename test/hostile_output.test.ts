// What a contract writes — logs, return values, storage keys and values — reaches clients exactly as
// written, and can never change the shape of an answer, whatever bytes it holds.
import t from 'tap';
import { compileContract } from './helpers/asc.js';
import { deployedAccount, localChain } from './helpers/chain.js';

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

t.test('hostile logs, return values and state come back exactly', async (t) => {
  const code = await compileContract('echo');
  const { node, provider, root } = await localChain(t);
  await deployedAccount({ provider, root }, 'echo.test.near', code, 10n * NEAR);

  for (const s of HOSTILE) {
    const args = Buffer.from(s).toString('base64');
    const view = await node.rpc<{ logs: string[]; result: number[] }>('query', {
      request_type: 'call_function',
      account_id: 'echo.test.near',
      method_name: 'say',
      args_base64: args,
      finality: 'optimistic',
    });
    t.same(view.body.result?.logs, [s], `view log ${JSON.stringify(s)}`);
    t.same(view.body.result?.result, [...Buffer.from(s)], 'view result bytes');

    const sent = await root.callFunctionRaw({
      contractId: 'echo.test.near',
      methodName: 'keep',
      args: Buffer.from(s),
      gas: 30n * TGAS,
    });
    const hash = sent.transaction_outcome.id;
    for (const method of ['tx', 'EXPERIMENTAL_tx_status']) {
      const r = await node.rpc<{
        status: { SuccessValue: string };
        receipts_outcome: { outcome: { logs: string[] } }[];
      }>(method, { tx_hash: hash, sender_account_id: 'test.near', wait_until: 'FINAL' });
      t.notOk(r.body.error, `${method} answers`);
      t.equal(r.body.result?.status.SuccessValue, args, `${method} return value`);
      t.same(r.body.result?.receipts_outcome[0]?.outcome.logs, [s], `${method} log ${JSON.stringify(s)}`);
    }
  }
  const state = await node.rpc<{ values: { key: string; value: string }[] }>('query', {
    request_type: 'view_state',
    account_id: 'echo.test.near',
    prefix_base64: '',
    finality: 'final',
  });
  const kept = (state.body.result?.values ?? []).map((v) => Buffer.from(v.key, 'base64').toString());
  t.same(kept.sort(), [...HOSTILE].sort(), 'every key stored and served');
});
