// one_yocto_on_promise (protocol 85): a contract with no balance attaches 1 yoctoNEAR to a call it
// makes without paying it. nearcore counts the yoctoNEAR as subsidized (function_call.rs adds the
// VM's subsidized_amount to the action result, cleared when the receipt fails; lib.rs adds it to the
// chunk's BalanceStats) and lowers the chunk's balance_burnt by it (chain/chain/src/runtime/mod.rs:
// burnt − subsidized_amount), so the chain's supply stays whole: nearcore's test
// `test_one_yocto_on_promise_subsidized_amount_in_stats` (runtime/src/tests/apply.rs) checks it.
import { encodeAccount, sha256, toHex } from '@nearlite/primitives';
import { trieKeyAccount, trieKeyContractCode } from '@nearlite/trie';
import t from 'tap';
import { keyFromSeed, NEAR, signTx, TestChain, vmRuntime, wat } from './helpers.js';

const CODE = wat(
  `(module
    (import "env" "promise_batch_create" (func $create (param i64 i64) (result i64)))
    (import "env" "promise_batch_action_function_call"
      (func $call (param i64 i64 i64 i64 i64 i64 i64)))
    (import "env" "panic" (func $panic))
    (memory 1)
    (data (i32.const 0) "\\01")
    (data (i32.const 64) "ft_transfer_call")
    (data (i32.const 96) "bob.near")
    (func $pay
      (call $call (call $create (i64.const 8) (i64.const 96))
        (i64.const 16) (i64.const 64) (i64.const 0) (i64.const 0) (i64.const 0) (i64.const 5000000000000)))
    (func (export "pay") (call $pay))
    (func (export "pay_then_fail") (call $pay) (call $panic)))`,
);

const alice = keyFromSeed(1);
const bob = keyFromSeed(2);

function chain(): TestChain {
  const c = new TestChain(vmRuntime());
  c.addAccount('alice.near', 100n * NEAR, alice);
  c.addAccount('bob.near', 10n * NEAR, bob);
  // A zero-balance account (its storage within nearcore's 770-byte allowance) running the contract.
  const zero = { amount: 0n, locked: 0n, codeHash: sha256(CODE), storageUsage: 100n };
  c.state.set(toHex(trieKeyAccount('zero.near')), encodeAccount(zero));
  c.state.set(toHex(trieKeyContractCode('zero.near')), CODE);
  return c;
}

const callZero = (method: string, nonce: bigint) =>
  signTx(alice, 'alice.near', 'zero.near', nonce, [
    {
      type: 'FunctionCall',
      methodName: method,
      args: new Uint8Array(0),
      gas: 50_000_000_000_000n,
      deposit: 0n,
    },
  ]).bytes;

t.test('the subsidized yoctoNEAR lowers the chunk’s balance_burnt', async (t) => {
  const c = chain();
  const supply = c.totalBalance();
  c.block([callZero('pay', 1n)]);
  const { res, outcomes } = c.block();
  const zeroOutcome = outcomes.find((o) => o.executorId === 'zero.near')!;
  t.same(zeroOutcome.status.kind, 'SuccessValue', 'the call attaches 1 yoctoNEAR with no balance');
  // The chunk burnt the receipt's tokens less the contract's reward, and minted the yoctoNEAR.
  t.ok(res.balanceBurnt < zeroOutcome.tokensBurnt);
  c.settle();
  // The yoctoNEAR bob.near received (and refunded, having no contract) was minted: balances hold one
  // more than the supply less what was burnt, and balance_burnt is one less, so they add up again.
  t.equal(c.totalBalance() + c.burnt, supply, 'the minted yoctoNEAR is in balance_burnt');
});

t.test('a receipt that fails subsidizes nothing', async (t) => {
  const c = chain();
  const supply = c.totalBalance();
  c.block([callZero('pay_then_fail', 1n)]);
  c.settle();
  t.equal(c.totalBalance() + c.burnt, supply, 'nothing minted');
});
