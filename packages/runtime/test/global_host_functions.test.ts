// The global-contract host functions (nearcore's logic.rs, enabled by global_contract_host_fns at
// protocol 86), called by a real contract on a batch to its own account.
import { type Action, decodeReceipt, utf8 } from '@nearlite/primitives';
import { trieKeyContractCode, trieKeyGlobalContractCode } from '@nearlite/trie';
import t from 'tap';
import { alice, bob, byAlice, CODE, call, stateGet, view, vmChain, wat } from './global_fixtures.js';
import { ONE_KEY_STORAGE, signTx } from './helpers.js';

// A contract that deploys or uses global contracts through nearcore's host functions, each time on a
// batch to its own account: deploy_by_account(code), use_hash(32-byte hash), use_account(account id).
const HOST_CODE = wat(
  `(module
    (import "env" "input" (func $input (param i64)))
    (import "env" "current_account_id" (func $me (param i64)))
    (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
    (import "env" "promise_batch_action_deploy_global_contract_by_account_id"
      (func $deploy (param i64 i64 i64)))
    (import "env" "promise_batch_action_use_global_contract" (func $use (param i64 i64 i64)))
    (import "env" "promise_batch_action_use_global_contract_by_account_id"
      (func $useAccount (param i64 i64 i64)))
    (memory 1)
    (func $self (result i64)
      (call $me (i64.const 1))
      (call $create (i64.const -1) (i64.const 1)))
    (func (export "deploy_by_account")
      (call $input (i64.const 0))
      (call $deploy (call $self) (i64.const -1) (i64.const 0)))
    (func (export "use_hash")
      (call $input (i64.const 0))
      (call $use (call $self) (i64.const -1) (i64.const 0)))
    (func (export "use_account")
      (call $input (i64.const 0))
      (call $useAccount (call $self) (i64.const -1) (i64.const 0))))`,
);

t.test('host functions: a contract deploys a global contract and switches its account to one', async (t) => {
  const c = vmChain();
  let nonce = 1n;
  const tx = (key: typeof alice, signer: string, receiver: string, actions: Action[]) =>
    signTx(key, signer, receiver, nonce++, actions).bytes;
  c.block([
    tx(alice, 'alice.near', 'alice.near', [{ type: 'DeployContract', code: HOST_CODE }]),
    tx(bob, 'bob.near', 'bob.near', [{ type: 'DeployContract', code: HOST_CODE }]),
  ]);
  c.settle();

  const b = c.block([tx(alice, 'alice.near', 'alice.near', [call('deploy_by_account', CODE)])]);
  const created = b.res.outgoingReceipts.map((r) => decodeReceipt(r.bytes));
  const batch = created.find(
    (r) => r.receipt.kind === 'Action' && r.receipt.actions.length > 0 && r.predecessorId === 'alice.near',
  );
  t.same(
    batch && batch.receipt.kind === 'Action' ? batch.receipt.actions : null,
    [{ type: 'DeployGlobalContract', code: CODE, deployMode: 1 }],
    'the contract’s batch carries the deploy action',
  );
  c.settle();
  t.same(stateGet(c, trieKeyGlobalContractCode(byAlice)), CODE, 'deployed under alice.near');
  t.equal(c.account('alice.near')!.v2, undefined, 'alice keeps her own contract');

  c.block([tx(bob, 'bob.near', 'bob.near', [call('use_account', utf8('alice.near'))])]);
  c.settle();
  const after = c.account('bob.near')!;
  t.same(after.v2, { contract: { kind: 'GlobalByAccount', accountId: 'alice.near' } });
  t.equal(after.storageUsage, ONE_KEY_STORAGE + 10n, 'the local code’s bytes go, the id’s 10 come');
  t.notOk(stateGet(c, trieKeyContractCode('bob.near')));
  t.equal(view(c, 'bob.near', 'whoami'), 'bob.near', 'bob now runs the global code');

  // A self-call runs in the chunk that converts its transaction.
  const local = c.block([tx(alice, 'alice.near', 'alice.near', [call('use_hash', new Uint8Array(31))])]);
  const failed = local.outcomes.find((o) => o.status.kind === 'Failure')!;
  t.same(failed.status, {
    kind: 'Failure',
    error: {
      ActionError: {
        index: 0,
        kind: { FunctionCallError: { ExecutionError: 'contract code hash is malformed' } },
      },
    },
  });
});
