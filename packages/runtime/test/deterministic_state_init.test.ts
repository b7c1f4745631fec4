// NEP-616 deterministic accounts as nearcore applies them (runtime/runtime/src/deterministic_account_id.rs,
// action_validation.rs, config.rs). Fees are nearcore's parameters at protocol 86; the exact balance a
// 100,000-byte account needs is the figure nearcore's own test_deterministic_state_init pins.
import {
  type Action,
  accountContract,
  base58Encode,
  deriveDeterministicAccountId,
  KeyType,
  type StateInit,
  utf8,
} from '@nearlite/primitives';
import { execFee, txCost, validateActions } from '@nearlite/runtime';
import { trieKeyContractData } from '@nearlite/trie';
import { transferFees } from '@nearlite/vm';
import t from 'tap';
import {
  alice,
  bob,
  byAlice,
  byHash,
  CODE,
  CODE_HASH,
  stateGet,
  view,
  vmChain,
  wat,
} from './global_fixtures.js';
import { config, GAS_PRICE, NEAR, signTx } from './helpers.js';
import { FEES } from './snapshot.js';

/**
 * nearcore's action_deterministic_state_init, _per_entry and _per_byte at protocol 86 (85.yaml set
 * the base fee; the runtime_config view prints none of the three).
 */
const INIT = {
  base: { send: 500_000_000_000n, exec: 7_430_000_000_000n },
  entry: { send: 0n, exec: 200_000_000_000n },
  byte: { send: 72_000_000n, exec: 70_000_000n },
};

const init = (code: StateInit['code'], data: [string, Uint8Array][]): StateInit => ({
  code,
  data: data.map(([k, v]) => [utf8(k), v]),
});
const action = (s: StateInit, deposit: bigint): Action => ({ type: 'DeterministicStateInit', ...s, deposit });

/** A chain where alice has deployed CODE as a global contract, by hash and under her account id. */
function chain() {
  const c = vmChain();
  c.block([
    signTx(alice, 'alice.near', 'alice.near', 1n, [
      { type: 'DeployGlobalContract', code: CODE, deployMode: 0 },
      { type: 'DeployGlobalContract', code: CODE, deployMode: 1 },
    ]).bytes,
  ]);
  c.settle();
  return c;
}

let nonce = 10n;
function send(c: ReturnType<typeof vmChain>, receiver: string, actions: Action[]) {
  const b = c.block([signTx(bob, 'bob.near', receiver, nonce++, actions).bytes]);
  return { tx: b.outcomes[0]!, rest: [...b.outcomes.slice(1), ...c.settle()] };
}

const failure = (o: { status: unknown }) =>
  (o.status as { error?: { ActionError?: { kind: unknown } } }).error?.ActionError?.kind;

t.test('fees: base, per entry and per key and value byte, the same sent to self or not', async (t) => {
  const s = init(byHash, [
    ['k', utf8('hello')],
    ['key2', new Uint8Array(10)],
  ]);
  const id = deriveDeterministicAccountId(s);
  const cost = txCost(config, 'bob.near', KeyType.ED25519, id, [action(s, 0n)], GAS_PRICE);
  const bytes = 1n + 5n + 4n + 10n;
  t.equal(cost.gasBurnt, FEES.receipt.sendNotSir + INIT.base.send + bytes * INIT.byte.send);
  const exec = INIT.base.exec + 2n * INIT.entry.exec + bytes * INIT.byte.exec;
  t.equal(cost.gasRemaining, FEES.receipt.exec + exec);
  t.equal(execFee(config, action(s, 0n), id), exec);
});

t.test('fees: a transfer that may create a deterministic or ETH-implicit account pays no key', async (t) => {
  for (const receiver of ['0s0000000000000000000000000000000000000000', `0x${'ab'.repeat(20)}`]) {
    const cost = txCost(
      config,
      'bob.near',
      KeyType.ED25519,
      receiver,
      [{ type: 'Transfer', deposit: 1n }],
      GAS_PRICE,
    );
    t.equal(
      cost.gasBurnt,
      FEES.receipt.sendNotSir + FEES.transfer.sendNotSir + FEES.createAccount.sendNotSir,
    );
    t.equal(cost.gasRemaining, FEES.receipt.exec + FEES.transfer.exec + FEES.createAccount.exec);
  }
  const implicit = txCost(
    config,
    'bob.near',
    KeyType.ED25519,
    'ab'.repeat(32),
    [{ type: 'Transfer', deposit: 1n }],
    GAS_PRICE,
  );
  t.equal(
    implicit.gasBurnt,
    FEES.receipt.sendNotSir +
      FEES.transfer.sendNotSir +
      FEES.createAccount.sendNotSir +
      FEES.addFullKey.sendNotSir,
    'a NEAR-implicit account still pays for its key',
  );
  // The same fees when a contract's promise transfers to one (promise_batch_action_transfer).
  const fromContract = transferFees(
    config.fees,
    false,
    true,
    true,
    '0s0000000000000000000000000000000000000000',
  );
  t.same(fromContract, {
    send: FEES.transfer.sendNotSir + FEES.createAccount.sendNotSir,
    exec: FEES.transfer.exec + FEES.createAccount.exec,
  });
});

t.test('validation: the derived receiver, the code id, key and value sizes, in delegates too', async (t) => {
  const s = init(byAlice, [['k', utf8('v')]]);
  const id = deriveDeterministicAccountId(s);
  t.equal(validateActions(config, [action(s, 0n)], id), null);
  t.same(validateActions(config, [action(s, 0n)], 'named.near'), {
    InvalidDeterministicStateInitReceiver: { receiver_id: 'named.near', derived_id: id },
  });
  const other = '0s1234567890123456789012345678901234567890';
  t.same(validateActions(config, [action(s, 0n)], other), {
    InvalidDeterministicStateInitReceiver: { receiver_id: other, derived_id: id },
  });
  const badCode = init({ kind: 'AccountId', accountId: 'Not Valid' }, []);
  t.same(validateActions(config, [action(badCode, 0n)], deriveDeterministicAccountId(badCode)), {
    InvalidAccountId: { account_id: 'Not Valid' },
  });
  const longKey: StateInit = { code: byAlice, data: [[new Uint8Array(2049), utf8('v')]] };
  t.same(validateActions(config, [action(longKey, 0n)], deriveDeterministicAccountId(longKey)), {
    DeterministicStateInitKeyLengthExceeded: { length: 2049, limit: 2048n },
  });
  const longValue: StateInit = { code: byAlice, data: [[utf8('k'), new Uint8Array(4_194_305)]] };
  t.same(validateActions(config, [action(longValue, 0n)], deriveDeterministicAccountId(longValue)), {
    DeterministicStateInitValueLengthExceeded: { length: 4_194_305, limit: 4_194_304n },
  });
  // FixDelegatedDeterministicStateInit (85): a delegate's inner actions go to its own receiver.
  const delegate = (receiverId: string): Action => ({
    type: 'Delegate',
    delegateAction: {
      senderId: 'alice.near',
      receiverId,
      actions: [action(s, 0n)],
      nonce: 1n,
      maxBlockHeight: 100n,
      publicKey: alice.publicKey,
    },
    signature: { keyType: 0, data: new Uint8Array(64) },
  });
  t.equal(validateActions(config, [delegate(id)], 'alice.near'), null);
  t.same(validateActions(config, [delegate('bob.near')], 'alice.near'), {
    InvalidDeterministicStateInitReceiver: { receiver_id: 'bob.near', derived_id: id },
  });
});

t.test('anyone creates the account: it runs the global code over the data it was given', async (t) => {
  const c = chain();
  const s = init(byHash, [['k', utf8('hello')]]);
  const id = deriveDeterministicAccountId(s);
  const total = c.totalBalance() + c.burnt;
  const { tx, rest } = send(c, id, [action(s, 0n)]);
  t.equal(tx.gasBurnt, FEES.receipt.sendNotSir + INIT.base.send + 6n * INIT.byte.send);
  t.equal(rest[0]!.status.kind, 'SuccessValue');
  t.equal(
    rest[0]!.gasBurnt,
    FEES.receipt.exec + INIT.base.exec + INIT.entry.exec + 6n * INIT.byte.exec,
    'the receipt burns the exec fees',
  );
  const a = c.account(id)!;
  t.equal(a.amount, 0n, 'a zero-balance account: 178 bytes need no deposit');
  // num_bytes_account, the code hash it refers to, and the entry with its 40 bytes of record.
  t.equal(a.storageUsage, 100n + 32n + 1n + 5n + 40n);
  t.same(accountContract(a), { kind: 'Global', hash: CODE_HASH });
  t.same(stateGet(c, trieKeyContractData(id, utf8('k'))), utf8('hello'));
  t.equal(view(c, id, 'get'), 'hello', 'the global code reads the initial data');
  t.equal(view(c, id, 'whoami'), id);
  t.equal(c.totalBalance() + c.burnt, total, 'nothing created or lost');
});

t.test('the deposit pays exactly the storage the account lacks; a second init refunds it all', async (t) => {
  const c = chain();
  const s = init(byHash, [['key', new Uint8Array(100_000)]]);
  const id = deriveDeterministicAccountId(s);
  // nearcore's test_deterministic_state_init: 100,175 bytes by code hash, 1.00175 NEAR.
  const required = 1_001_750_000_000_000_000_000_000n;
  const before = c.account('bob.near')!.amount;
  send(c, id, [action(s, 10n * required)]);
  const a = c.account(id)!;
  t.equal(a.storageUsage, 100_175n);
  t.equal(a.amount, required, 'exactly the required balance stays on the account');
  const between = c.account('bob.near')!.amount;
  t.ok(before - between > required, 'the signer paid the storage and the gas');
  t.ok(before - between < required + NEAR / 100n, 'and got the rest of the deposit back');

  send(c, id, [action(s, 10n * required)]);
  t.equal(c.account(id)!.amount, required, 'nothing added on the second call');
  t.equal(c.account(id)!.storageUsage, 100_175n);
  const after = c.account('bob.near')!.amount;
  t.ok(between - after < NEAR / 100n, 'the second call costs only its gas');
});

t.test('errors: a missing global contract, a deposit short of the storage', async (t) => {
  const c = vmChain();
  const s = init(byHash, [['k', utf8('v')]]);
  const id = deriveDeterministicAccountId(s);
  const before = c.account('bob.near')!.amount;
  const { rest } = send(c, id, [action(s, 5n * NEAR)]);
  t.same(failure(rest[0]!), {
    GlobalContractDoesNotExist: { identifier: { hash: base58Encode(CODE_HASH) } },
  });
  t.equal(c.account(id), null, 'no account is left behind');
  t.ok(before - c.account('bob.near')!.amount < NEAR / 100n, 'the deposit came back');

  const c2 = chain();
  const big = init(byHash, [['key', new Uint8Array(100_000)]]);
  const bigId = deriveDeterministicAccountId(big);
  const r2 = send(c2, bigId, [action(big, 0n)]);
  t.same(failure(r2.rest[0]!), {
    LackBalanceForState: { account_id: bigId, amount: '1001750000000000000000000' },
  });
  t.equal(c2.account(bigId), null);
});

t.test(
  'a short deposit all goes to the account; the receipt fails only if nothing makes up the rest',
  async (t) => {
    // action_deterministic_state_init: when check_storage_stake's missing amount exceeds the deposit,
    // the whole deposit is added to the account and nothing is refunded ("following actions might be
    // able to fix the balance requirements"); apply_action_receipt's storage check after the last
    // action fails the receipt with LackBalanceForState and no action index.
    const c = chain();
    const s = init(byHash, [['key', new Uint8Array(100_000)]]);
    const id = deriveDeterministicAccountId(s);
    const required = 1_001_750_000_000_000_000_000_000n; // test_deterministic_state_init's figure
    const lacking = (amount: bigint) => ({
      kind: 'Failure',
      error: {
        ActionError: {
          index: null,
          kind: { LackBalanceForState: { account_id: id, amount: amount.toString() } },
        },
      },
    });
    const before = c.account('bob.near')!.amount;
    const short = send(c, id, [action(s, NEAR)]);
    t.same(short.rest[0]!.status, lacking(required - NEAR), 'what is still missing once the deposit is in');
    t.equal(c.account(id), null, 'no account is left behind');
    t.ok(before - c.account('bob.near')!.amount < NEAR / 100n, 'the failed receipt refunds the deposit');

    // A transfer after it covers the storage: the account is made, holding both amounts.
    const topped = send(c, id, [action(s, NEAR / 2n), { type: 'Transfer', deposit: 2n * NEAR }]);
    t.equal(topped.rest[0]!.status.kind, 'SuccessValue');
    t.equal(c.account(id)?.amount, NEAR / 2n + 2n * NEAR, 'the short deposit stays on the account');
    t.equal(c.account(id)?.storageUsage, 100_175n);
    t.equal(
      topped.rest.filter((o) => o.executorId === 'bob.near').length,
      1,
      'the only receipt back to the signer is the gas refund',
    );

    // On an account that a lone transfer created uninitialised, the balance it holds counts too.
    const c2 = chain();
    send(c2, id, [{ type: 'Transfer', deposit: 1000n }]);
    t.equal(c2.account(id)?.amount, 1000n);
    const later = send(c2, id, [{ type: 'Transfer', deposit: 1n }, action(s, NEAR)]);
    t.same(later.rest[0]!.status, lacking(required - 1001n - NEAR));
    t.equal(c2.account(id)?.amount, 1000n, 'the failed receipt leaves the account as it was');
  },
);

t.test('a lone transfer creates the account uninitialised; its StateInit activates it', async (t) => {
  const c = chain();
  const s = init(byAlice, [['k', utf8('x')]]);
  const id = deriveDeterministicAccountId(s);
  const two = send(c, id, [
    { type: 'Transfer', deposit: 1n },
    { type: 'Transfer', deposit: 1n },
  ]);
  t.same(failure(two.rest[0]!), { AccountDoesNotExist: { account_id: id } }, 'not with other actions');
  const { tx, rest } = send(c, id, [{ type: 'Transfer', deposit: 1n }]);
  t.equal(tx.gasBurnt, FEES.receipt.sendNotSir + FEES.transfer.sendNotSir + FEES.createAccount.sendNotSir);
  t.equal(rest[0]!.status.kind, 'SuccessValue');
  t.equal(rest[0]!.gasBurnt, FEES.receipt.exec + FEES.transfer.exec + FEES.createAccount.exec);
  const a = c.account(id)!;
  t.equal(a.amount, 1n);
  t.equal(a.storageUsage, 100n, 'no key and no contract');
  t.same(accountContract(a), { kind: 'None' });

  send(c, id, [action(s, 0n)]);
  const active = c.account(id)!;
  t.equal(active.amount, 1n);
  t.equal(active.storageUsage, 100n + 10n + 1n + 1n + 40n, '"alice.near" is 10 bytes of reference');
  t.same(accountContract(active), { kind: 'GlobalByAccount', accountId: 'alice.near' });
  t.equal(view(c, id, 'get'), 'x');
});

// A factory: `make` creates the account its input names (42 bytes) with the global code whose hash
// follows (32 bytes) and one entry, "k" = "hi"; `bad_batch` sends bob.near a DeleteAccount followed
// by a Transfer.
const FACTORY = wat(`(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
  (import "env" "promise_batch_action_state_init" (func $init (param i64 i64 i64 i64) (result i64)))
  (import "env" "set_state_init_data_entry" (func $entry (param i64 i64 i64 i64 i64 i64)))
  (import "env" "promise_batch_action_delete_account" (func $del (param i64 i64 i64)))
  (import "env" "promise_batch_action_transfer" (func $transfer (param i64 i64)))
  (import "env" "promise_set_refund_to" (func $refund_to (param i64 i64 i64)))
  (import "env" "promise_batch_action_function_call" (func $fcall (param i64 i64 i64 i64 i64 i64 i64)))
  (memory 1)
  (data (i32.const 0) "k")
  (data (i32.const 8) "hi")
  (data (i32.const 48) "bob.near")
  (data (i32.const 64) "\\00\\00\\00\\a1\\ed\\cc\\ce\\1b\\c2\\d3\\00\\00\\00\\00\\00\\00")
  (data (i32.const 96) "carol.near")
  (data (i32.const 112) "alice.near")
  (data (i32.const 128) "nope")
  (func (export "make_refund_to_carol") (local $p i64) (local $a i64)
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 1000))
    (local.set $p (call $create (i64.const 42) (i64.const 1000)))
    (local.set $a (call $init (local.get $p) (i64.const 32) (i64.const 1042) (i64.const 64)))
    (call $entry (local.get $p) (local.get $a) (i64.const 1) (i64.const 0) (i64.const 2) (i64.const 8))
    (call $refund_to (local.get $p) (i64.const 10) (i64.const 96)))
  (func (export "fail_refund_to_carol") (local $p i64)
    (local.set $p (call $create (i64.const 10) (i64.const 112)))
    (call $fcall (local.get $p) (i64.const 4) (i64.const 128) (i64.const 0) (i64.const 0) (i64.const 64)
      (i64.const 5000000000000))
    (call $refund_to (local.get $p) (i64.const 10) (i64.const 96)))
  (func (export "make") (local $p i64) (local $a i64)
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 1000))
    (local.set $p (call $create (i64.const 42) (i64.const 1000)))
    (local.set $a (call $init (local.get $p) (i64.const 32) (i64.const 1042) (i64.const 16)))
    (call $entry (local.get $p) (local.get $a) (i64.const 1) (i64.const 0) (i64.const 2) (i64.const 8)))
  (func (export "bad_batch") (local $p i64)
    (local.set $p (call $create (i64.const 8) (i64.const 48)))
    (call $del (local.get $p) (i64.const 8) (i64.const 48))
    (call $transfer (local.get $p) (i64.const 16))))`);

t.test('a contract creates the account through the host functions', async (t) => {
  const c = chain();
  send(c, 'bob.near', [{ type: 'DeployContract', code: FACTORY }]);
  const s = init(byHash, [['k', utf8('hi')]]);
  const id = deriveDeterministicAccountId(s);
  const make = (receiver: string): Action => ({
    type: 'FunctionCall',
    methodName: 'make',
    args: new Uint8Array([...utf8(receiver), ...CODE_HASH]),
    gas: 100_000_000_000_000n,
    deposit: 0n,
  });
  const ok = send(c, 'bob.near', [make(id)]);
  t.equal(ok.rest[0]!.status.kind, 'SuccessValue', 'the factory ran');
  const a = c.account(id)!;
  t.equal(a.storageUsage, 100n + 32n + 1n + 2n + 40n);
  t.same(accountContract(a), { kind: 'Global', hash: CODE_HASH });
  t.equal(view(c, id, 'get'), 'hi');

  // A receipt whose StateInit does not derive its receiver fails the call that made it.
  const wrong = `0s${'0'.repeat(40)}`;
  const bad = send(c, 'bob.near', [make(wrong)]);
  t.same(failure(bad.rest[0]!), {
    NewReceiptValidationError: {
      ActionsValidation: { InvalidDeterministicStateInitReceiver: { receiver_id: wrong, derived_id: id } },
    },
  });
  t.equal(c.account(wrong), null);
  // Any action rule holds for a contract's receipts as for a transaction's.
  const batch = send(c, 'bob.near', [{ ...make(id), methodName: 'bad_batch', args: new Uint8Array(0) }]);
  t.same(failure(batch.rest[0]!), {
    NewReceiptValidationError: { ActionsValidation: 'DeleteActionMustBeFinal' },
  });
  t.ok(c.account('bob.near'), 'nothing of the batch ran');
});

t.test('balance refunds go to the refund_to a contract set on the receipt', async (t) => {
  const c = chain();
  c.addAccount('carol.near', NEAR);
  send(c, 'bob.near', [{ type: 'DeployContract', code: FACTORY }]);
  const call = (methodName: string, args = new Uint8Array(0)): Action => ({
    type: 'FunctionCall',
    methodName,
    args,
    gas: 100_000_000_000_000n,
    deposit: 0n,
  });
  // The StateInit's deposit (1 NEAR) beyond the account's storage comes back to carol, not bob.
  const s = init(byHash, [['k', utf8('hi')]]);
  const id = deriveDeterministicAccountId(s);
  const carol0 = c.account('carol.near')!.amount;
  const bob0 = c.account('bob.near')!.amount;
  const made = send(c, 'bob.near', [
    call('make_refund_to_carol', new Uint8Array([...utf8(id), ...CODE_HASH])),
  ]);
  t.equal(made.rest[0]!.status.kind, 'SuccessValue');
  t.equal(c.account(id)!.amount, 0n, 'a zero-balance account keeps nothing');
  t.equal(c.account('carol.near')!.amount - carol0, NEAR, 'the whole deposit went to carol');
  t.ok(bob0 - c.account('bob.near')!.amount > NEAR, 'bob paid it');
  // A failed call's deposit (alice.near has no code) goes back to carol too.
  const carol1 = c.account('carol.near')!.amount;
  const failed = send(c, 'bob.near', [call('fail_refund_to_carol')]);
  t.equal(failed.rest[0]!.status.kind, 'SuccessValue', 'the factory itself succeeded');
  t.same(failure(failed.rest[1]!), {
    FunctionCallError: { CompilationError: { CodeDoesNotExist: { account_id: 'alice.near' } } },
  });
  t.equal(c.account('carol.near')!.amount - carol1, NEAR);
});
