// The global-contract host functions (nearcore's logic.rs, enabled by global_contract_host_fns at
// protocol 86), called by a real contract on a batch to its own account.
import { type Action, base58Encode, decodeReceipt, sha256, utf8 } from '@nearlite/primitives';
import { type ExecutionOutcome, outcomeView } from '@nearlite/runtime';
import { trieKeyContractCode, trieKeyGlobalContractCode } from '@nearlite/trie';
import t from 'tap';
import {
  alice,
  bob,
  byAlice,
  byHash,
  CODE,
  CODE_HASH,
  call,
  LEN,
  stateGet,
  view,
  vmChain,
  wat,
} from './global_fixtures.js';
import { GLOBAL } from './global_params.js';
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

interface MetadataView {
  version: number;
  gas_profile: { cost_category: string; cost: string; gas_used: string }[];
  contracts: unknown[];
}
const metadata = (o: ExecutionOutcome) => (outcomeView(o) as { metadata: MetadataView }).metadata;

t.test(
  'ExecutionMetadataV4: global contracts in `contracts`, the host functions’ fees in the profile',
  async (t) => {
    const c = vmChain();
    let nonce = 1n;
    const tx = (key: typeof alice, signer: string, receiver: string, actions: Action[]) =>
      signTx(key, signer, receiver, nonce++, actions).bytes;
    c.block([
      tx(alice, 'alice.near', 'alice.near', [{ type: 'DeployContract', code: HOST_CODE }]),
      tx(bob, 'bob.near', 'bob.near', [{ type: 'DeployGlobalContract', code: CODE, deployMode: 0 }]),
    ]);
    c.settle();

    // The contract's deploy_by_account call books the deploy fees it burnt (sender is receiver).
    const b = c.block([tx(alice, 'alice.near', 'alice.near', [call('deploy_by_account', CODE)])]);
    const ran = b.outcomes.find((o) => o.executorId === 'alice.near' && metadata(o).version === 4)!;
    t.equal(ran.status.kind, 'SuccessValue');
    const m = metadata(ran);
    t.same(m.contracts, [{ local: base58Encode(sha256(HOST_CODE)) }]);
    const cost = (name: string) => m.gas_profile.find((x) => x.cost === name)?.gas_used;
    t.equal(cost('DEPLOY_GLOBAL_CONTRACT_BASE'), GLOBAL.deployBase.sendSir.toString());
    t.equal(cost('DEPLOY_GLOBAL_CONTRACT_BYTE'), (LEN * GLOBAL.deployByte.sendSir).toString());
    t.equal(cost('USE_GLOBAL_CONTRACT_BASE'), undefined);
    c.settle();

    // Each action sees the contract bob's account had right before it: none, then global by hash,
    // then global under alice.near's id.
    const u = c.block([
      tx(bob, 'bob.near', 'bob.near', [
        { type: 'UseGlobalContract', identifier: byHash },
        call('whoami'),
        { type: 'UseGlobalContract', identifier: byAlice },
        call('whoami'),
      ]),
    ]);
    const used = u.outcomes.find((o) => o.executorId === 'bob.near' && metadata(o).version === 4)!;
    t.same(used.status, { kind: 'SuccessValue', value: utf8('bob.near') });
    t.same(metadata(used).contracts, [
      null,
      { global_hash: base58Encode(CODE_HASH) },
      { global_hash: base58Encode(CODE_HASH) },
      { global_account_id: 'alice.near' },
    ]);
    t.same(used.metadata?.version === 4 ? used.metadata.contracts : null, [
      { kind: 'None' },
      { kind: 'Global', hash: CODE_HASH },
      { kind: 'Global', hash: CODE_HASH },
      { kind: 'GlobalByAccount', accountId: 'alice.near' },
    ]);
    // The refund back to bob: his account now runs alice.near's global contract.
    const refund = c.settle().find((o) => o.executorId === 'bob.near')!;
    t.same(metadata(refund).contracts, [{ global_account_id: 'alice.near' }]);
  },
);
