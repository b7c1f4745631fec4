// Stateless transaction checks against nearcore at protocol 86: the cap on deploy actions
// (runtime/runtime/src/action_validation.rs, validate_number_of_deploy_actions; 84.yaml lowers
// max_deploy_actions_per_receipt to 10), the order actions → size → signature
// (verifier.rs validate_transaction, then core/primitives/src/transaction.rs
// ValidatedTransaction::new), the truncated receiver of an invalid function-call key
// (validate_access_key_permission), and a nonce index on an ordinary key (chain/chain/src/runtime/
// mod.rs can_verify_and_charge_tx and runtime lib.rs process_transactions: InvalidNonceIndex).
import { sign } from 'node:crypto';
import {
  type Action,
  decodeSignedTransaction,
  encodeSignedTransaction,
  KeyType,
  type Transaction,
  transactionHash,
} from '@nearlite/primitives';
import { validateActions, verifyTransaction } from '@nearlite/runtime';
import { TrieUpdate } from '@nearlite/trie';
import t from 'tap';
import { config, GAS_PRICE, type Key, keyFromSeed, NEAR, signTx, TestChain } from './helpers.js';
import { SNAPSHOT } from './snapshot.js';

const alice = keyFromSeed(1);
const other = keyFromSeed(5);
const WASM = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
const DEPLOY_LIMIT = SNAPSHOT.wasm_config.limit_config.max_deploy_actions_per_receipt!;
const deployLocal = (): Action => ({ type: 'DeployContract', code: WASM });
const deployGlobal = (): Action => ({ type: 'DeployGlobalContract', code: WASM, deployMode: 0 });
/** A call of `methodName` with `args` bytes of arguments and `gas` attached, no deposit. */
const call = (gas: bigint, methodName = 'f', args = 0): Action => ({
  type: 'FunctionCall',
  methodName,
  args: new Uint8Array(args),
  gas,
  deposit: 0n,
});

function chain(): TestChain {
  const c = new TestChain();
  c.addAccount('alice.near', 1000n * NEAR, alice);
  return c;
}

function verify(c: TestChain, bytes: Uint8Array) {
  const update = new TrieUpdate({
    get: (k: Uint8Array) => c.state.get(Buffer.from(k).toString('hex')),
    iterPrefix: () => [],
  });
  return verifyTransaction(update, decodeSignedTransaction(bytes), config, GAS_PRICE, { charge: false });
}

function delegateWith(actions: Action[]): Action {
  return {
    type: 'Delegate',
    delegateAction: {
      senderId: 'bob.near',
      receiverId: 'token.near',
      actions,
      nonce: 1n,
      maxBlockHeight: 100n,
      publicKey: alice.publicKey,
    },
    signature: { keyType: KeyType.ED25519, data: new Uint8Array(64) },
  };
}

t.test(
  'more than max_deploy_actions_per_receipt deploys is TotalNumberOfDeployActionsExceeded',
  async (t) => {
    t.equal(DEPLOY_LIMIT, 10, "the snapshot's limit at 86");
    const exceeded = (n: number) => ({
      TotalNumberOfDeployActionsExceeded: { number_of_deploy_actions: n, limit: DEPLOY_LIMIT },
    });
    t.equal(validateActions(config, Array.from({ length: 10 }, deployLocal), 'alice.near'), null);
    // Local and global deploys count together (the filter matches both variants).
    const mixed = [...Array.from({ length: 6 }, deployLocal), ...Array.from({ length: 5 }, deployGlobal)];
    t.same(validateActions(config, mixed, 'alice.near'), exceeded(11));
    // The count comes before the per-action checks: a zero-gas call after the deploys is not reached.
    const zeroGasCall = call(0n);
    t.same(
      validateActions(config, [...Array.from({ length: 11 }, deployLocal), zeroGasCall], 'alice.near'),
      exceeded(11),
    );
    // ... and after the total count.
    const many = Array.from({ length: 101 }, deployLocal);
    t.same(validateActions(config, many, 'alice.near'), {
      TotalNumberOfActionsExceeded: { total_number_of_actions: 101, limit: 100 },
    });
    // nearcore's test_validate_deploy_actions_limit: a delegate's inner deploys are capped on their
    // own, never added to the outer ones.
    t.same(
      validateActions(config, [delegateWith(Array.from({ length: 11 }, deployLocal))], 'alice.near'),
      exceeded(11),
    );
    const outerAndInner = [
      ...Array.from({ length: 9 }, deployLocal),
      delegateWith(Array.from({ length: 10 }, deployGlobal)),
    ];
    t.equal(validateActions(config, outerAndInner, 'alice.near'), null);

    const c = chain();
    const tx = signTx(alice, 'alice.near', 'alice.near', 1n, Array.from({ length: 11 }, deployLocal));
    t.same(verify(c, tx.bytes), { ok: false, error: { ActionsValidation: exceeded(11) } });
  },
);

t.test('actions are checked before the size, the size before the signature', async (t) => {
  const c = chain();
  const limit = SNAPSHOT.wasm_config.limit_config.max_transaction_size!;
  // Too large and with an invalid action: nearcore's validate_transaction runs validate_actions first.
  const bigZeroGas = signTx(alice, 'alice.near', 'alice.near', 1n, [call(0n, 'f', 2_000_000)]);
  t.same(verify(c, bigZeroGas.bytes), {
    ok: false,
    error: { ActionsValidation: 'FunctionCallZeroAttachedGas' },
  });
  // Too large with valid actions and a wrong signature: check_valid_for_config, then the signature.
  const big = signTx(other, 'alice.near', 'alice.near', 1n, [call(1n, 'f', 2_000_000)]);
  const tampered = decodeSignedTransaction(big.bytes);
  const forged = encodeSignedTransaction(tampered.transaction, {
    keyType: KeyType.ED25519,
    data: new Uint8Array(64),
  });
  const r = verify(c, forged);
  t.equal(r.ok, false);
  t.same(Object.keys((r as { error: object }).error), ['TransactionSizeExceeded']);
  t.same(
    (r as { error: { TransactionSizeExceeded: { limit: number } } }).error.TransactionSizeExceeded.limit,
    limit,
  );
});

t.test('an invalid function-call key receiver is reported cut to AccountId::MAX_LEN * 2 bytes', async (t) => {
  const addKey = (receiverId: string): Action => ({
    type: 'AddKey',
    publicKey: other.publicKey,
    accessKey: {
      nonce: 0n,
      permission: { kind: 'FunctionCall', allowance: null, receiverId, methodNames: [] },
    },
  });
  t.same(validateActions(config, [addKey('X'.repeat(200))], 'alice.near'), {
    InvalidAccountId: { account_id: 'X'.repeat(128) },
  });
  // truncate_string backs off to a char boundary: 'a' + 63 two-byte chars is 127 bytes, the 64th
  // would end at byte 129.
  t.same(validateActions(config, [addKey(`a${'é'.repeat(100)}`)], 'alice.near'), {
    InvalidAccountId: { account_id: `a${'é'.repeat(63)}` },
  });
  // Short ones are reported whole.
  t.same(validateActions(config, [addKey('Bad..Id')], 'alice.near'), {
    InvalidAccountId: { account_id: 'Bad..Id' },
  });
});

function signNonceIndexTx(key: Key, nonce: bigint, nonceIndex: number): Uint8Array {
  const tx: Transaction = {
    version: 1,
    nonceIndex,
    signerId: 'alice.near',
    publicKey: key.publicKey,
    nonce,
    receiverId: 'alice.near',
    blockHash: new Uint8Array(32).fill(9),
    actions: [{ type: 'Transfer', deposit: 1n }],
  };
  const hash = transactionHash(tx);
  return encodeSignedTransaction(tx, {
    keyType: KeyType.ED25519,
    data: new Uint8Array(sign(null, hash, key.privateKey)),
  });
}

t.test('a nonce index on an ordinary access key is InvalidNonceIndex with no nonces', async (t) => {
  const c = chain();
  // No gas-key nonce exists under an ordinary key, and gas_key_info() is None: num_nonces 0.
  t.same(verify(c, signNonceIndexTx(alice, 5n, 0)), {
    ok: false,
    error: { InvalidNonceIndex: { tx_nonce_index: 0, num_nonces: 0 } },
  });
  t.same(verify(c, signNonceIndexTx(alice, 5n, 3)), {
    ok: false,
    error: { InvalidNonceIndex: { tx_nonce_index: 3, num_nonces: 0 } },
  });
});

t.test(
  'a remembered signature check matches the whole signature, and only recent ones are kept',
  async (t) => {
    const c = chain();
    const transfer: Action[] = [{ type: 'Transfer', deposit: 1n }];
    const genuine = decodeSignedTransaction(signTx(alice, 'alice.near', 'bob.near', 7n, transfer).bytes);
    const withSignature = (data: Uint8Array) =>
      decodeSignedTransaction(
        encodeSignedTransaction(genuine.transaction, { keyType: KeyType.ED25519, data }),
      );
    const update = new TrieUpdate({
      get: (k: Uint8Array) => c.state.get(Buffer.from(k).toString('hex')),
      iterPrefix: () => [],
    });
    const check = (stx: ReturnType<typeof decodeSignedTransaction>, signatureVerdict?: boolean) =>
      verifyTransaction(update, stx, config, GAS_PRICE, { charge: false, signatureVerdict });
    const refused = (r: ReturnType<typeof check>) => !r.ok && r.error === 'InvalidSignature';

    t.notOk(refused(check(genuine)), 'the genuine signature passes');
    // Same transaction hash, another signature: the check just remembered must not answer for it.
    const forged = genuine.signature.data.slice();
    forged[63] ^= 1;
    t.ok(refused(check(withSignature(forged))), 'one flipped bit of the signature is refused');
    t.ok(refused(check(withSignature(new Uint8Array(64)))), 'a zero signature is refused');

    // Remembered: a later verdict is not asked for. A verdict of false shows whether it is.
    t.notOk(refused(check(genuine, false)), 'remembered right after');
    const others = (n: number, from: number) => {
      for (let i = 0; i < n; i++) {
        const data = new Uint8Array(64);
        new DataView(data.buffer).setUint32(0, from + i);
        check(withSignature(data), true);
      }
    };
    others(20_000, 1);
    t.notOk(refused(check(genuine, false)), 'still remembered after 20,000 other checks');
    others(40_000, 100_000);
    t.ok(refused(check(genuine, false)), 'forgotten after 60,000: the store of checks is bounded');
  },
);

t.test(
  "each action's own limits, in validate_function_call_action's and validate_access_key_permission's order",
  async (t) => {
    const limits = SNAPSHOT.wasm_config.limit_config;
    t.equal(limits.max_length_method_name, 256, "the snapshot's limits at 86");
    t.equal(limits.max_arguments_length, 4_194_304);
    t.equal(limits.max_number_bytes_method_names, 2000);
    const long = 'm'.repeat(257);
    // Zero gas first, then the name, then the arguments.
    t.same(validateActions(config, [call(0n, long, 4_194_305)], 'alice.near'), 'FunctionCallZeroAttachedGas');
    t.same(validateActions(config, [call(1n, long, 4_194_305)], 'alice.near'), {
      FunctionCallMethodNameLengthExceeded: { length: 257, limit: 256 },
    });
    t.equal(
      validateActions(config, [call(1n, 'm'.repeat(256), 4_194_304)], 'alice.near'),
      null,
      'at the limits',
    );
    t.same(validateActions(config, [call(1n, 'f', 4_194_305)], 'alice.near'), {
      FunctionCallArgumentsLengthExceeded: { length: 4_194_305, limit: 4_194_304 },
    });
    // A method name's length is in bytes: 129 two-byte characters are 258.
    t.same(validateActions(config, [call(1n, 'é'.repeat(129), 0)], 'alice.near'), {
      FunctionCallMethodNameLengthExceeded: { length: 258, limit: 256 },
    });

    const addKey = (methodNames: string[]): Action => ({
      type: 'AddKey',
      publicKey: other.publicKey,
      accessKey: {
        nonce: 0n,
        permission: { kind: 'FunctionCall', allowance: null, receiverId: 'token.near', methodNames },
      },
    });
    // Each name is checked as it comes; the total (each name and a terminator) after all of them.
    t.same(validateActions(config, [addKey(['a', long, ...Array(10).fill('b'.repeat(250))])], 'alice.near'), {
      AddKeyMethodNameLengthExceeded: { length: 257, limit: 256 },
    });
    t.equal(
      validateActions(config, [addKey(Array(8).fill('c'.repeat(249)))], 'alice.near'),
      null,
      '8 × 250 = 2000',
    );
    t.same(validateActions(config, [addKey(Array(8).fill('c'.repeat(250)))], 'alice.near'), {
      AddKeyMethodNamesNumberOfBytesExceeded: { total_number_of_bytes: 2008, limit: 2000 },
    });
  },
);

t.test('prepaid gas: over the limit, and past u64 (IntegerOverflow, as nearcore sums it)', async (t) => {
  const limit = BigInt(SNAPSHOT.wasm_config.limit_config.max_total_prepaid_gas!);
  t.equal(limit, 1_000_000_000_000_000n, "the snapshot's max_total_prepaid_gas at 86");
  t.equal(validateActions(config, [call(limit / 2n), call(limit / 2n)], 'alice.near'), null);
  t.same(validateActions(config, [call(limit / 2n), call(limit / 2n + 1n)], 'alice.near'), {
    TotalPrepaidGasExceeded: { total_prepaid_gas: limit + 1n, limit },
  });
  // nearcore's test_validate_actions_gas_overflow: two of u64::MAX / 2 + 1.
  const half = 1n << 63n;
  t.same(validateActions(config, [call(half), call(half)], 'alice.near'), 'IntegerOverflow');
  // Within a delegate's actions too: its inner list is validated on its own, before the outer total.
  t.same(validateActions(config, [delegateWith([call(half), call(half)])], 'alice.near'), 'IntegerOverflow');

  const c = chain();
  const tx = signTx(alice, 'alice.near', 'bob.near', 1n, [call(half), call(half)]);
  t.same(verify(c, tx.bytes), { ok: false, error: { ActionsValidation: 'IntegerOverflow' } });
});

t.test('a cost past u128 is CostOverflow, before the signer is looked up', async (t) => {
  const U128_MAX = (1n << 128n) - 1n;
  const c = chain();
  const transfer = (deposit: bigint): Action => ({ type: 'Transfer', deposit });
  // nearcore's test_validate_transaction_invalid_balance_overflow: send_money of Balance::MAX.
  const all = signTx(alice, 'alice.near', 'bob.near', 1n, [transfer(U128_MAX)]);
  t.same(verify(c, all.bytes), { ok: false, error: 'CostOverflow' });
  // Deposits that each fit and together do not.
  const halves = signTx(alice, 'alice.near', 'bob.near', 1n, [transfer(1n << 127n), transfer(1n << 127n)]);
  t.same(verify(c, halves.bytes), { ok: false, error: 'CostOverflow' });
  // can_verify_and_charge_tx prices the transaction before it reads the signer: an unknown signer
  // with such a deposit is CostOverflow too, and a plain one is SignerDoesNotExist.
  const nobody = signTx(alice, 'nobody.near', 'bob.near', 1n, [transfer(U128_MAX)]);
  t.same(verify(c, nobody.bytes), { ok: false, error: 'CostOverflow' });
  const nobodySmall = signTx(alice, 'nobody.near', 'bob.near', 1n, [transfer(1n)]);
  t.same(verify(c, nobodySmall.bytes), {
    ok: false,
    error: { SignerDoesNotExist: { signer_id: 'nobody.near' } },
  });
  // A deposit that fits with the gas is only more than the balance.
  const gasCost = (() => {
    const r = verify(c, signTx(alice, 'alice.near', 'bob.near', 1n, [transfer(0n)]).bytes);
    return r.ok ? r.cost.totalCost : 0n;
  })();
  t.ok(gasCost > 0n);
  const most = signTx(alice, 'alice.near', 'bob.near', 1n, [transfer(U128_MAX - gasCost)]);
  const r = verify(c, most.bytes);
  t.same(Object.keys((r as { error: object }).error), ['NotEnoughBalance']);
  t.equal(
    (r as { error: { NotEnoughBalance: { cost: string } } }).error.NotEnoughBalance.cost,
    U128_MAX.toString(),
  );
});
