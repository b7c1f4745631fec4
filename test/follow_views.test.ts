// State views on a follower: the genesis records of `init` are history at the genesis height, and
// call_function runs the contract on the node's view workers against that history.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { actions, KeyPair } from 'near-api-js';
import t from 'tap';
import { addGenesisCounter } from './helpers/genesis_counter.js';
import { initHome, startNode, waitForHeight } from './helpers/node.js';
import { postJson } from './helpers/post.js';
import { signFromValidator } from './helpers/signed_tx.js';
import { syntheticChain, writeLake } from './helpers/synthetic_chain.js';
import { tempDir } from './helpers/tmp.js';

t.test('a follower answers state views and runs view calls on its history', async (t) => {
  const dir = tempDir(t);
  const home = join(dir, 'home');
  initHome(home);
  const { code, codeHash } = await addGenesisCounter(home);
  const genesis = JSON.parse(readFileSync(join(home, 'genesis.json'), 'utf8')) as { records: unknown[] };
  const chain = syntheticChain(3, { afterGenesis: 0 });
  writeLake(join(dir, 'blocks'), chain);
  const node = await startNode(home, ['--follow', `file:${join(dir, 'blocks')}`]);
  t.teardown(() => node.stop());
  const head = chain.at(-1)!.block.header.height;
  await waitForHeight(node, head);

  const call = await node.rpc<{ result: number[]; block_height: number }>('query', {
    request_type: 'call_function',
    account_id: 'counter.test.near',
    method_name: 'get',
    args_base64: '',
    finality: 'final',
  });
  t.equal(Buffer.from(call.body.result!.result).toString(), '7', 'the contract read its genesis state');
  t.equal(call.body.result!.block_height, head);

  const state = await node.rpc<{ values: { key: string; value: string }[] }>('query', {
    request_type: 'view_state',
    account_id: 'counter.test.near',
    prefix_base64: '',
    block_id: head,
  });
  // The counter at 7, as the genesis record wrote it: "n" → 7 as an i32, little-endian.
  t.same(state.body.result!.values, [{ key: 'bg==', value: 'BwAAAA==' }]);
  const viewCode = await node.rpc<{ hash: string; code_base64: string }>('query', {
    request_type: 'view_code',
    account_id: 'counter.test.near',
    finality: 'final',
  });
  t.equal(viewCode.body.result!.hash, codeHash);
  t.equal(viewCode.body.result!.code_base64, Buffer.from(code).toString('base64'));

  const missing = await node.rpc('query', {
    request_type: 'call_function',
    account_id: 'nobody.test.near',
    method_name: 'get',
    args_base64: '',
    finality: 'final',
  });
  t.equal(missing.body.error?.cause.name, 'UNKNOWN_ACCOUNT');
  const keys = await node.rpc<{ keys: unknown[] }>('query', {
    request_type: 'view_access_key_list',
    account_id: 'test.near',
    finality: 'final',
  });
  // Genesis keys of test.near, plus the keys the followed blocks added (their access_key_update).
  const expected = new Set<string>();
  for (const r of genesis.records as { AccessKey?: { account_id: string; public_key: string } }[]) {
    if (r.AccessKey?.account_id === 'test.near') expected.add(r.AccessKey.public_key);
  }
  for (const c of chain[0]!.shards.flatMap((s) => s.state_changes)) {
    if (c.type === 'access_key_update' && c.change.account_id === 'test.near')
      expected.add(String(c.change.public_key));
  }
  t.same(
    new Set((keys.body.result!.keys as { public_key: string }[]).map((k) => k.public_key)),
    expected,
    "test.near's keys: genesis and followed blocks",
  );
  // The followed blocks name block producers other than this genesis' (they came from another
  // sandbox), and without --upstream-rpc nobody here knows them.
  const validators = await node.rpc('validators', [null]);
  t.same(validators.body.error?.cause, { name: 'VALIDATOR_INFO_UNAVAILABLE' });
  const gas = await node.rpc<{ gas_price: string }>('gas_price', [head]);
  t.equal(gas.body.result!.gas_price, chain.at(-1)!.block.header.gas_price);
  // A transaction that decodes, from a key nobody holds: refused before anything would check it.
  const someone = KeyPair.fromRandom('ed25519').toString();
  const tx = await signFromValidator(
    node,
    { account_id: 'test.near', secret_key: someone },
    'test.near',
    [actions.transfer(1n)],
    1n,
    chain.at(-1)!.block.header.hash,
  );
  for (const method of ['broadcast_tx_commit', 'broadcast_tx_async', 'send_tx']) {
    const send = await node.rpc(method, method === 'send_tx' ? { signed_tx_base64: tx.base64 } : [tx.base64]);
    t.match(
      send.body.error?.data,
      /started without --upstream-rpc: it has no validator to send a transaction to/,
      `${method}: no write method without --upstream-rpc, said without naming another method`,
    );
  }

  // A height above 2^53 is a u64 no block has, named exactly, as on a producer.
  const big = '9007199254740993';
  const raw = async (method: string, params: string) =>
    (await postJson(node.url, `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`)).text;
  const notFound = `"data":"DB Not Found Error: BLOCK HEIGHT: ${big} \\n Cause: Unknown"`;
  t.match(await raw('block', `{"block_id":${big}}`), notFound, 'block');
  t.match(await raw('chunk', `{"block_id":${big},"shard_id":0}`), notFound, 'chunk');
  const query = await raw(
    'query',
    `{"request_type":"view_account","account_id":"test.near","block_id":${big}}`,
  );
  t.match(query, `"cause":{"name":"UNKNOWN_BLOCK","info":{"block_reference":{"block_id":${big}}}}`);
  t.match(await raw('chunk', `{"block_id":${head},"shard_id":${big}}`), `"info":{"shard_id":${big}}`);
});
