// Gas profiles through the node: a contract of our own called with near-api-js, its outcomes read
// back with EXPERIMENTAL_tx_status. Costs come from nearcore's parameter snapshot, the shape from
// @near-js/jsonrpc-types; the profile is checked against nearcore's rule that a receipt's own exec
// fees are in gas_burnt but not in the profile.
import { readFileSync } from 'node:fs';
import * as T from '@near-js/jsonrpc-types';
import { base58Encode, sha256 } from '@nearlite/primitives';
import t from 'tap';
import { compileContract } from './helpers/asc.js';
import { deployedAccount, localChain } from './helpers/chain.js';
import { camel } from './helpers/node.js';
import { wat } from './helpers/wat.js';

const NEAR = 10n ** 24n;
const snap = readFileSync(
  new URL(
    '../packages/runtime/test/fixtures/near_parameters__config_store__tests__86.json.snap',
    import.meta.url,
  ),
  'utf8',
);
const SNAPSHOT = JSON.parse(snap.slice(snap.indexOf('\n{') + 1)) as {
  transaction_costs: {
    action_receipt_creation_config: { execution: number };
    action_creation_config: {
      function_call_cost: { execution: number };
      function_call_cost_per_byte: { execution: number };
    };
  };
  wasm_config: { ext_costs: Record<string, number>; regular_op_cost: number };
};
const ext = (name: string) => BigInt(SNAPSHOT.wasm_config.ext_costs[name]!);
const tc = SNAPSHOT.transaction_costs;

interface Cost {
  cost_category: string;
  cost: string;
  gas_used: string;
}
interface OutcomeView {
  id: string;
  outcome: {
    executor_id: string;
    gas_burnt: number;
    metadata: { version: number; gas_profile: Cost[] | null; contracts?: unknown[] };
  };
}
interface TxStatus {
  transaction_outcome: OutcomeView;
  receipts_outcome: OutcomeView[];
  receipts: {
    receipt_id: string;
    predecessor_id: string;
    receipt: { Action?: { actions: { FunctionCall?: { method_name: string; args: string } }[] } };
  }[];
}

t.test('a contract call reports its gas profile and contract like nearcore', async (t) => {
  const code = await compileContract('counter');
  const { node, provider, root } = await localChain(t);
  await deployedAccount({ provider, root }, 'count.test.near', code, 5n * NEAR);
  await root.callFunction({ contractId: 'count.test.near', methodName: 'increment', args: {} });
  // The second increment reads the stored 4-byte value and overwrites it.
  const second = await root.callFunctionRaw({
    contractId: 'count.test.near',
    methodName: 'increment',
    args: {},
  });

  const res = await node.rpc<TxStatus>('EXPERIMENTAL_tx_status', {
    tx_hash: second.transaction_outcome.id,
    sender_account_id: 'test.near',
    wait_until: 'FINAL',
  });
  const status = res.body.result!;
  t.ok(T.RpcTransactionResponseSchema().safeParse(camel(status)).success, 'the client schema accepts it');
  t.same(status.transaction_outcome.outcome.metadata, { version: 1, gas_profile: null });

  const call = status.receipts_outcome.find((o) => o.outcome.executor_id === 'count.test.near')!;
  const m = call.outcome.metadata;
  t.equal(m.version, 4);
  t.same(m.contracts, [{ local: base58Encode(sha256(code)) }]);
  const profile = m.gas_profile!;
  const get = (cost: string) => BigInt(profile.find((c) => c.cost === cost)?.gas_used ?? '0');
  t.same(
    profile.map((c) => [c.cost_category, c.cost]),
    profile.map((c) => [c.cost_category, c.cost]).sort((a, b) => (`${a}` < `${b}` ? -1 : 1)),
    'sorted by category and name',
  );
  t.ok(
    profile.every((c) => BigInt(c.gas_used) > 0n),
    'no zero entries',
  );
  t.equal(get('CONTRACT_LOADING_BYTES'), BigInt(code.length) * ext('contract_loading_bytes'));
  t.equal(get('STORAGE_READ_BASE'), ext('storage_read_base'));
  t.equal(get('STORAGE_READ_VALUE_BYTE'), 4n * ext('storage_read_value_byte'));
  t.equal(get('STORAGE_WRITE_BASE'), ext('storage_write_base'));
  t.equal(get('STORAGE_WRITE_KEY_BYTE'), ext('storage_write_key_byte'));
  t.equal(get('STORAGE_WRITE_VALUE_BYTE'), 4n * ext('storage_write_value_byte'));
  t.equal(get('STORAGE_WRITE_EVICTED_BYTE'), 4n * ext('storage_write_evicted_byte'), 'the old value');
  t.equal(get('TOUCHING_TRIE_NODE') % ext('touching_trie_node'), 0n, 'whole trie nodes');
  t.ok(get('WASM_INSTRUCTION') > 0n);
  t.equal(get('WASM_INSTRUCTION') % BigInt(SNAPSHOT.wasm_config.regular_op_cost), 0n);

  const receipt = status.receipts.find((r) => r.receipt_id === call.id)!;
  const fc = receipt.receipt.Action!.actions[0]!.FunctionCall!;
  const bytes = BigInt(fc.method_name.length + Buffer.from(fc.args, 'base64').length);
  const execFees =
    BigInt(tc.action_receipt_creation_config.execution) +
    BigInt(tc.action_creation_config.function_call_cost.execution) +
    bytes * BigInt(tc.action_creation_config.function_call_cost_per_byte.execution);
  const total = profile.reduce((s, c) => s + BigInt(c.gas_used), 0n);
  t.equal(total + execFees, BigInt(call.outcome.gas_burnt), 'profile + exec fees = gas_burnt');

  const refund = status.receipts_outcome.find((o) => o.outcome.executor_id === 'test.near');
  t.ok(refund, 'the gas refund ran');
  t.same(refund!.outcome.metadata, { version: 4, gas_profile: [], contracts: [null] });
});

// nearcore's AccountingState (runtime/src/ext.rs) lives for a chunk: a storage write's lookup that
// meets a trie node (or value) an earlier lookup of the chunk fetched is READ_CACHED_TRIE_NODE, any
// other TOUCHING_TRIE_NODE. The two cost the same since protocol 82, so only the profile tells them.
t.test('storage writes: nodes met again in the chunk are READ_CACHED_TRIE_NODE', async (t) => {
  const code = await wat(`(module
    (import "env" "storage_write" (func $w (param i64 i64 i64 i64 i64) (result i64)))
    (import "env" "storage_read" (func $r (param i64 i64 i64) (result i64)))
    (memory (export "memory") 1)
    (data (i32.const 0) "abxy")
    (func (export "w2")
      (drop (call $w (i64.const 1) (i64.const 0) (i64.const 1) (i64.const 2) (i64.const 0)))
      (drop (call $w (i64.const 1) (i64.const 1) (i64.const 1) (i64.const 3) (i64.const 0))))
    (func (export "rw")
      (drop (call $r (i64.const 1) (i64.const 0) (i64.const 0)))
      (drop (call $w (i64.const 1) (i64.const 0) (i64.const 1) (i64.const 2) (i64.const 0)))))`);
  const { node, provider, root } = await localChain(t);
  await deployedAccount({ provider, root }, 'w2.test.near', code, 5n * NEAR);
  await root.callFunction({ contractId: 'w2.test.near', methodName: 'w2', args: {} });
  // Both keys are in the state now: each write's lookup walks from the root down to its key.
  const profileOf = async (methodName: string) => {
    const sent = await root.callFunctionRaw({ contractId: 'w2.test.near', methodName, args: {} });
    const res = await node.rpc<TxStatus>('EXPERIMENTAL_tx_status', {
      tx_hash: sent.transaction_outcome.id,
      sender_account_id: 'test.near',
      wait_until: 'FINAL',
    });
    const call = res.body.result!.receipts_outcome.find((o) => o.outcome.executor_id === 'w2.test.near')!;
    const profile = call.outcome.metadata.gas_profile!;
    const nodes = (cost: string, unit: bigint) => {
      const gas = BigInt(profile.find((c) => c.cost === cost)?.gas_used ?? '0');
      t.equal(gas % unit, 0n, `${methodName} ${cost}: whole nodes`);
      return gas / unit;
    };
    return {
      touched: nodes('TOUCHING_TRIE_NODE', ext('touching_trie_node')),
      cached: nodes('READ_CACHED_TRIE_NODE', ext('read_cached_trie_node')),
    };
  };
  const { touched, cached } = await profileOf('w2');
  // The keys "a" (0x61) and "b" (0x62) differ only in their last nibble, and nothing else of the
  // account's data shares their path: both run from the root to one branch, each to a leaf of its own
  // holding its own value ("x", "y"). The first lookup meets P nodes, its leaf among them, and its
  // value; the second meets the same P - 1 nodes down to the branch again (cached), then its leaf and
  // value: P + 1 + 2 touched, P - 1 cached.
  t.ok(cached >= 1n, `the second lookup meets the first one's path again (${cached} nodes)`);
  t.equal(touched - cached, 4n, `touched ${touched}, cached ${cached}`);
  // A read goes through flat storage, touching no node, but its value's dereference goes through
  // the accounting: the write of the same key then walks the P nodes of its path (new) and meets
  // the value again.
  const rw = await profileOf('rw');
  t.same(rw, { touched: cached + 1n, cached: 1n }, 'read then write: the path touched, the value cached');
});
