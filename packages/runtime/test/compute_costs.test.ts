// A chunk's limit bounds compute, not gas (runtime lib.rs: compute_limit, which is the chunk's gas
// limit, against the total compute of its transactions and receipts). Compute is gas but where
// nearcore's parameters give a compute cost of its own (parameters.snap, copied to fixtures/):
// deploying a contract (20 Tgas of compute against 0.18 Tgas of gas), storage access from a
// contract, installing a global contract's code on a shard, removing a gas key's nonces. The gas
// charged and reported is the same either way; what changes is how many receipts a chunk runs.

import { trieKeyGasKeyNonce } from '@nearlite/trie';
import { EXT_COMPUTE_COSTS, EXT_COSTS, ProfileDataV3 } from '@nearlite/vm';
import t from 'tap';
import { config, keyFromSeed, NEAR, signTx, TestChain, vmRuntime, wat } from './helpers.js';
import { compute, ext, FEES } from './snapshot.js';

const alice = keyFromSeed(1);

t.test("the compute costs are parameters.snap's, and every other one is its gas", async (t) => {
  t.equal(config.compute.deployContractBase, compute('action_deploy_contract.execution'));
  t.equal(config.compute.deployContractByte, compute('action_deploy_contract_per_byte.execution'));
  t.equal(config.compute.globalContractDistributionBase, compute('deploy_global_contract_execution_base'));
  t.equal(
    config.compute.globalContractDistributionByte,
    compute('deploy_global_contract_execution_per_byte'),
  );
  for (const name of EXT_COSTS) {
    const own = EXT_COMPUTE_COSTS[name];
    t.equal(own ?? ext(name), compute(`wasm_${name}`), name);
  }
  t.equal(compute('wasm_storage_write_base'), 200_000_000_000n, 'the reader reads the compute column');
});

t.test("a contract call's compute: each host cost's gas scaled by its compute over its gas", async (t) => {
  const p = new ProfileDataV3();
  const write = ext('storage_write_base');
  p.addExtCost('storage_write_base', 2n * write);
  // A charge cut short by the gas limit is scaled as it was burnt, rounded down (total_compute_usage).
  p.addExtCost('storage_read_base', 1_000n);
  p.addExtCost('storage_large_read_overhead_base', 3n); // gas 1 each, compute 41 Ggas each
  p.addExtCost('base', 5n * ext('base'));
  p.addActionCost('new_action_receipt', 7n);
  p.computeWasmInstructionCost(2n * write + 1_000n + 3n + 5n * ext('base') + 7n + 11n);
  const readScaled = (1_000n * compute('wasm_storage_read_base')) / ext('storage_read_base');
  t.equal(
    p.totalComputeUsage(config.wasm.ext_costs, config.wasm.ext_compute_costs),
    2n * compute('wasm_storage_write_base') +
      readScaled +
      3n * compute('wasm_storage_large_read_overhead_base') +
      5n * ext('base') +
      7n +
      11n,
  );
});

t.test(
  'a contract writing storage counts its compute against the chunk, and runs fewer a chunk',
  async (t) => {
    const code = wat(`(module
    (import "env" "storage_write" (func $w (param i64 i64 i64 i64 i64) (result i64)))
    (memory (export "memory") 1)
    (data (i32.const 0) "k")
    (func (export "put") (drop (call $w (i64.const 1) (i64.const 0) (i64.const 1) (i64.const 0) (i64.const 0)))))`);
    const c = new TestChain(vmRuntime());
    c.addAccount('alice.near', 100n * NEAR, alice);
    c.block([signTx(alice, 'alice.near', 'alice.near', 1n, [{ type: 'DeployContract', code }]).bytes]);
    c.settle();
    const call = (nonce: bigint) =>
      signTx(alice, 'alice.near', 'alice.near', nonce, [
        {
          type: 'FunctionCall',
          methodName: 'put',
          args: new Uint8Array(0),
          gas: 10_000_000_000_000n,
          deposit: 0n,
        },
      ]).bytes;
    const { res, outcomes } = c.block([call(2n)]);
    const receipt = outcomes[1]!;
    t.equal(receipt.status.kind, 'SuccessValue', 'the call ran in the chunk of its transaction');
    const profile = receipt.metadata && 'profile' in receipt.metadata ? receipt.metadata.profile : null;
    if (!profile) throw new Error('no profile');
    // Everything is its gas but the storage write's base and the trie nodes it read, counted from
    // the profile the outcome carries: 200 Ggas of compute for the base's 64.2, 4 Ggas for 2.28.
    const nodes = profile.getExtCost('touching_trie_node') / ext('touching_trie_node');
    const cached = profile.getExtCost('read_cached_trie_node') / ext('read_cached_trie_node');
    t.equal(profile.getExtCost('storage_write_base'), ext('storage_write_base'), 'one storage_write');
    t.equal(
      res.computeUsage - res.gasUsed,
      compute('wasm_storage_write_base') -
        ext('storage_write_base') +
        nodes * (compute('wasm_touching_trie_node') - ext('touching_trie_node')) +
        cached * (compute('wasm_read_cached_trie_node') - ext('read_cached_trie_node')),
    );
  },
);

t.test('deployments: a chunk stops at its limit in compute, far before gas would stop it', async (t) => {
  const code = wat('(module)');
  const c = new TestChain();
  c.addAccount('alice.near', 100n * NEAR, alice);
  c.gasLimit = 100_000_000_000_000n;
  const txs = Array.from(
    { length: 10 },
    (_, i) =>
      signTx(alice, 'alice.near', 'alice.near', BigInt(i + 1), [{ type: 'DeployContract', code }]).bytes,
  );
  const L = BigInt(code.length);
  // Converting each (sender is receiver): send_sir of the receipt, of the deployment and its bytes.
  const convert = FEES.receipt.sendSir + FEES.deployBase.sendSir + FEES.deployByte.sendSir * L;
  // Running each: the receipt's execution, then the deployment's execution compute.
  const run =
    compute('action_receipt_creation.execution') +
    compute('action_deploy_contract.execution') +
    compute('action_deploy_contract_per_byte.execution') * L;
  const runGas = FEES.receipt.exec + FEES.deployBase.exec + FEES.deployByte.exec * L;
  // nearcore checks the limit before each receipt: the one that crosses it runs.
  let ran = 0;
  while (10n * convert + BigInt(ran) * run < c.gasLimit) ran++;
  t.equal(ran, 5, 'five of the ten run (by gas alone all ten would: 10 x 0.29 Tgas)');
  t.ok(10n * convert + 10n * runGas < c.gasLimit);
  const first = c.block(txs);
  t.equal(first.res.delayedReceipts, 10 - ran);
  t.equal(first.res.gasUsed, 10n * convert + BigInt(ran) * runGas, 'the gas reported is gas');
  t.equal(first.res.computeUsage, 10n * convert + BigInt(ran) * run);
  const refunds = c.pending.length;
  const second = c.block();
  // The delayed ones run first and fill the chunk again (4 x 20.1 Tgas is under the limit, the fifth
  // crosses it): the gas refunds the first chunk sent wait in their turn.
  t.equal(second.outcomes.length, 10 - ran, 'the rest run in the next chunk');
  t.equal(second.res.computeUsage, BigInt(10 - ran) * run);
  t.equal(second.res.delayedReceipts, refunds);
});

t.test("a gas key's deletion takes the compute of removing its nonces, which no gas pays for", async (t) => {
  const gas = keyFromSeed(2);
  const c = new TestChain();
  c.addAccount('alice.near', 10n * NEAR, alice);
  const numNonces = 3;
  c.block([
    signTx(alice, 'alice.near', 'alice.near', 1n, [
      {
        type: 'AddKey',
        publicKey: gas.publicKey,
        accessKey: { nonce: 0n, permission: { kind: 'FullAccess', gasKey: { balance: 0n, numNonces } } },
      },
    ]).bytes,
  ]);
  c.settle();
  const { res } = c.block([
    signTx(alice, 'alice.near', 'alice.near', 2n, [{ type: 'DeleteKey', publicKey: gas.publicKey }]).bytes,
  ]);
  t.equal(c.accessKey('alice.near', gas.publicKey), null, 'the key is gone');
  // storage_removes_compute: per nonce row its removal's base, its key's bytes, its u64 value's bytes.
  const keyLen = BigInt(trieKeyGasKeyNonce('alice.near', gas.publicKey, 0).length);
  const n = BigInt(numNonces);
  t.equal(
    res.computeUsage - res.gasUsed,
    n * compute('wasm_storage_remove_base') +
      n * keyLen * compute('wasm_storage_remove_key_byte') +
      n * 8n * compute('wasm_storage_remove_ret_value_byte'),
  );
});
