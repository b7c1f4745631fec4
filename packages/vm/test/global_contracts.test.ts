// The global-contract host functions charge nearcore's fees (logic.rs: pay_action_base and
// pay_action_per_byte with the deploy/use global contract costs). Expected numbers come from
// nearcore's parameter file that introduced them (fixtures/runtime_configs_77.yaml).
import { readFileSync } from 'node:fs';
import t from 'tap';
import { call, contract, freshHash, MockExternal } from './helpers.js';

const yaml = readFileSync(new URL('./fixtures/runtime_configs_77.yaml', import.meta.url), 'utf8');
function fee(name: string): { sir: bigint; notSir: bigint; exec: bigint } {
  const body = yaml.slice(yaml.indexOf('new:', yaml.indexOf(`${name}: {`)));
  const pick = (f: string) => BigInt(new RegExp(`${f}: ([\\d_]+)`).exec(body)![1]!.replaceAll('_', ''));
  return { sir: pick('send_sir'), notSir: pick('send_not_sir'), exec: pick('execution') };
}
const DEPLOY = fee('action_deploy_global_contract');
const DEPLOY_BYTE = fee('action_deploy_global_contract_per_byte');
const USE = fee('action_use_global_contract');
const USE_BYTE = fee('action_use_global_contract_per_identifier_byte');

// 100 the current account, 120 another 13-byte account, 200 "bob.near", 400 a 32-byte hash.
const code = await contract(`
  (data (i32.const 100) "contract.near")
  (data (i32.const 120) "xontract.near")
  (data (i32.const 200) "bob.near")
  (data (i32.const 400) "\\01\\02\\03\\04\\05\\06\\07\\08\\09\\0a\\0b\\0c\\0d\\0e\\0f\\10\\11\\12\\13\\14\\15\\16\\17\\18\\19\\1a\\1b\\1c\\1d\\1e\\1f\\20")
  (func $self (result i64) (call $promise_batch_create (i64.const 13) (i64.const 100)))
  (func $other (result i64) (call $promise_batch_create (i64.const 13) (i64.const 120)))
  (func (export "base") (drop (call $self)))
  (func (export "use_hash")
    (call $promise_batch_action_use_global_contract (call $self) (i64.const 32) (i64.const 400)))
  (func (export "use_hash_other")
    (call $promise_batch_action_use_global_contract (call $other) (i64.const 32) (i64.const 400)))
  (func (export "use_account")
    (call $promise_batch_action_use_global_contract_by_account_id (call $self) (i64.const 8) (i64.const 200)))
  (func (export "deploy")
    (call $promise_batch_action_deploy_global_contract (call $self) (i64.const 50) (i64.const 500)))
  (func (export "deploy_account")
    (call $promise_batch_action_deploy_global_contract_by_account_id (call $self) (i64.const 50) (i64.const 500)))
  (func (export "bad_hash")
    (call $promise_batch_action_use_global_contract (call $self) (i64.const 31) (i64.const 400)))
  (func (export "no_batch")
    (call $promise_batch_action_use_global_contract (i64.const 0) (i64.const 32) (i64.const 400)))
  (func (export "bad_account")
    (call $promise_batch_action_use_global_contract_by_account_id (call $self) (i64.const 3) (i64.const 201)))
`);
const hash = freshHash();
const run = (method: string, external = new MockExternal()) =>
  call({ code, codeHash: hash, method, external });
/** Gas a call reserves for the receipts it creates: their exec fees (no function calls attached). */
const reserved = (method: string) => {
  const o = run(method);
  if (o.aborted) throw new Error(`${method} failed: ${JSON.stringify(o.aborted)}`);
  return o.used_gas - o.burnt_gas;
};

t.test('the actions a contract appends', async (t) => {
  const ext = new MockExternal();
  t.equal(run('use_hash', ext).aborted, null);
  t.same(ext.receipts[0]!.actions, [
    { UseGlobalContract: { code_hash: '0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20' } },
  ]);
  const byAccount = new MockExternal();
  run('use_account', byAccount);
  t.same(byAccount.receipts[0]!.actions, [{ UseGlobalContract: { account_id: 'bob.near' } }]);
  const deploy = new MockExternal();
  run('deploy', deploy);
  run('deploy_account', deploy);
  t.same(
    deploy.receipts.map((r) => r.actions),
    [
      [{ DeployGlobalContract: { code: '00'.repeat(50), deploy_mode: 0 } }],
      [{ DeployGlobalContract: { code: '00'.repeat(50), deploy_mode: 1 } }],
    ],
  );
});

t.test('exec fees are reserved per identifier byte and per code byte', async (t) => {
  const base = reserved('base');
  t.equal(reserved('use_hash') - base, USE.exec + 32n * USE_BYTE.exec, 'a code hash is 32 bytes');
  t.equal(reserved('use_account') - base, USE.exec + 8n * USE_BYTE.exec, '"bob.near" is 8 bytes');
  t.equal(reserved('deploy') - base, DEPLOY.exec + 50n * DEPLOY_BYTE.exec);
  t.equal(reserved('deploy_account') - base, DEPLOY.exec + 50n * DEPLOY_BYTE.exec);
});

t.test('send fees burn at the sender-is-receiver rate only for the current account', async (t) => {
  const self = run('use_hash');
  const other = run('use_hash_other');
  t.equal(other.burnt_gas - self.burnt_gas, USE.notSir - USE.sir + 32n * (USE_BYTE.notSir - USE_BYTE.sir));
});

t.test('malformed input and views are refused', async (t) => {
  t.same(run('bad_hash').aborted, { HostError: 'ContractCodeHashMalformed' });
  t.same(run('bad_account').aborted, { HostError: 'InvalidAccountId' }, '"ob." is not an account id');
  // Views may not create receipts: the check comes before the promise index is looked at.
  const view = call({
    code,
    codeHash: hash,
    method: 'no_batch',
    context: { view_config: { max_gas_burnt: 300_000_000_000_000n } },
  });
  t.same(view.aborted, {
    HostError: { ProhibitedInView: { method_name: 'promise_batch_action_use_global_contract' } },
  });
  t.same(run('no_batch').aborted, { HostError: { InvalidPromiseIndex: { promise_idx: 0n } } });
});

t.test(
  "the profile books each charge under nearcore's action cost, with the send fee it burnt",
  async (t) => {
    const profile = (method: string) => {
      const o = run(method);
      if (o.aborted) throw new Error(`${method} failed: ${JSON.stringify(o.aborted)}`);
      return o.profile;
    };
    const use = profile('use_hash');
    t.equal(use.getActionCost('use_global_contract_base'), USE.sir);
    t.equal(use.getActionCost('use_global_contract_byte'), 32n * USE_BYTE.sir);
    t.equal(use.getActionCost('deploy_global_contract_base'), 0n);
    const byAccount = profile('use_account');
    t.equal(byAccount.getActionCost('use_global_contract_base'), USE.sir);
    t.equal(byAccount.getActionCost('use_global_contract_byte'), 8n * USE_BYTE.sir, '"bob.near" is 8 bytes');
    const other = profile('use_hash_other');
    t.equal(other.getActionCost('use_global_contract_base'), USE.notSir);
    t.equal(other.getActionCost('use_global_contract_byte'), 32n * USE_BYTE.notSir);
    for (const method of ['deploy', 'deploy_account']) {
      const p = profile(method);
      t.equal(p.getActionCost('deploy_global_contract_base'), DEPLOY.sir, method);
      t.equal(p.getActionCost('deploy_global_contract_byte'), 50n * DEPLOY_BYTE.sir, method);
      t.equal(p.getActionCost('use_global_contract_base'), 0n, method);
    }
  },
);
