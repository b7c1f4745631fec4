// View calls on a follower of one of NEAR's own networks run under the VM config nearcore runs them
// under at the block read: its protocol version's, clamped up to 84 (the oldest a current nearcore
// runs). Protocol 85 turned on the `chain_id`, `p256_verify`, gas-key and yield-with-id host
// functions, so at a block of 84 or before a contract importing one does not link, as on nearcore
// (LinkError "unknown or invalid import"); from 85 on it runs. Any chain's block that names an older
// version than the node's runs that version's config, as nearcore's config store gives it for any
// chain id; a chain nearlite produces names its genesis' version in every block.
import { join } from 'node:path';
import t from 'tap';
import { addGenesisContract } from './helpers/genesis_counter.js';
import { initHome, initNamedChain, startNode, waitForHeight } from './helpers/node.js';
import { syntheticChain, writeLake } from './helpers/synthetic_chain.js';
import { tempDir } from './helpers/tmp.js';
import { wat } from './helpers/wat.js';

const FROM = 1_000_000;
// Heights FROM and FROM + 1 ran protocol 83 and 84, the rest 85.
const versionAt = (h: number) => (h === FROM ? 83 : h === FROM + 1 ? 84 : 85);

const CHAIN_ID = `(module
  (import "env" "chain_id" (func $chain_id (param i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (memory 1)
  (func (export "chain") (call $chain_id (i64.const 0)) (call $value_return (i64.const -1) (i64.const 0))))`;
const PLAIN = `(module
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (memory 1)
  (data (i32.const 0) "ok")
  (func (export "chain") (call $value_return (i64.const 2) (i64.const 0))))`;

type CallResult = { result?: number[]; error?: string };

async function follower(t: Tap.Test, chainId: string, versions = versionAt) {
  const dir = tempDir(t);
  const home = join(dir, 'home');
  if (chainId === 'testnet') initNamedChain(home, 'testnet');
  else initHome(home);
  addGenesisContract(home, 'gated.test.near', await wat(CHAIN_ID));
  addGenesisContract(home, 'plain.test.near', await wat(PLAIN));
  const chain = syntheticChain(4, { from: FROM, afterGenesis: 0, versionAt: versions });
  writeLake(join(dir, 'blocks'), chain);
  const node = await startNode(home, ['--follow', `file:${join(dir, 'blocks')}`]);
  t.teardown(() => node.stop());
  await waitForHeight(node, FROM + 3);
  return async (accountId: string, height: number) => {
    const params = { account_id: accountId, method_name: 'chain', args_base64: '', block_id: height };
    const query = await node.rpc<CallResult>('query', { request_type: 'call_function', ...params });
    const experimental = await node.rpc<CallResult>('EXPERIMENTAL_call_function', params);
    return { query: query.body.result!, experimental: experimental.body };
  };
}

const text = (r: CallResult) => Buffer.from(r.result ?? []).toString();

t.test("testnet: a host function of 85 links at blocks of 85 only, as nearcore's views do", async (t) => {
  const call = await follower(t, 'testnet');
  for (const h of [FROM, FROM + 1]) {
    const { query, experimental } = await call('gated.test.near', h);
    t.match(
      query.error,
      /LinkError \{ msg: "unknown or invalid import" \}/,
      `#${h} (${versionAt(h)}): query`,
    );
    t.equal(experimental.error?.cause.name, 'CONTRACT_EXECUTION_ERROR', `#${h}: EXPERIMENTAL_call_function`);
    t.same(
      (experimental.error?.cause.info as { vm_error?: unknown } | undefined)?.vm_error,
      // nearcore's conversion of a LinkError into the view's error (runtime/src/conversions.rs).
      { ExecutionError: 'Link Error: unknown or invalid import' },
      `#${h}: nearcore's FunctionCallError`,
    );
    t.equal(text((await call('plain.test.near', h)).query), 'ok', `#${h}: a contract without one runs`);
  }
  for (const h of [FROM + 2, FROM + 3]) {
    const { query, experimental } = await call('gated.test.near', h);
    t.equal(text(query), 'testnet', `#${h} (85): chain_id runs`);
    t.equal(text(experimental.result!), 'testnet');
  }
});

t.test("another chain: its blocks of this node's version run its config, older ones theirs", async (t) => {
  const call = await follower(t, 'test-chain', (h) => (h === FROM ? 84 : 86));
  t.match((await call('gated.test.near', FROM)).query.error, /LinkError/, '#1000000 (84)');
  for (const h of [FROM + 1, FROM + 2]) {
    t.equal(text((await call('gated.test.near', h)).query), 'test-chain', `#${h} (86)`);
  }
});
