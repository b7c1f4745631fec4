// Shared pieces of the global-contract tests: a real contract (compiled from text with wabt), the
// accounts, and a single-shard chain with the Wasm VM and a compiled-module cache of its own.
import { type Action, sha256, toHex } from '@nearlite/primitives';
import { Runtime, VmFunctionCallRunner, viewCall } from '@nearlite/runtime';
import { ContractCache } from '@nearlite/vm';
import { config, keyFromSeed, NEAR, TestChain, wat } from './helpers.js';

export { wat };

/** set(input) stores the input under "k"; get returns it; whoami returns the current account. */
export const CODE = wat(
  `(module
    (import "env" "input" (func $input (param i64)))
    (import "env" "storage_write" (func $write (param i64 i64 i64 i64 i64) (result i64)))
    (import "env" "storage_read" (func $read (param i64 i64 i64) (result i64)))
    (import "env" "value_return" (func $return (param i64 i64)))
    (import "env" "current_account_id" (func $me (param i64)))
    (memory 1)
    (data (i32.const 0) "k")
    (func (export "set")
      (call $input (i64.const 0))
      (drop (call $write (i64.const 1) (i64.const 0) (i64.const -1) (i64.const 0) (i64.const 1))))
    (func (export "get")
      (drop (call $read (i64.const 1) (i64.const 0) (i64.const 2)))
      (call $return (i64.const -1) (i64.const 2)))
    (func (export "whoami")
      (call $me (i64.const 3))
      (call $return (i64.const -1) (i64.const 3))))`,
);
export const CODE_HASH = sha256(CODE);
export const LEN = BigInt(CODE.length);

export const alice = keyFromSeed(1);
export const bob = keyFromSeed(2);
export const send = (f: { sendSir: bigint; sendNotSir: bigint }, sir: boolean) =>
  sir ? f.sendSir : f.sendNotSir;
export const call = (methodName: string, args = new Uint8Array(0)): Action => ({
  type: 'FunctionCall',
  methodName,
  args,
  gas: 30_000_000_000_000n,
  deposit: 0n,
});
export const byHash = { kind: 'CodeHash', hash: CODE_HASH } as const;
export const byAlice = { kind: 'AccountId', accountId: 'alice.near' } as const;

export function vmChain(): TestChain {
  // A cache of its own: a module compiled by another test must not stand in for missing code.
  const functionCall = new VmFunctionCallRunner(new ContractCache());
  const c = new TestChain(
    new Runtime({
      config,
      chainId: 'test',
      validators: new Map(),
      functionCall,
    }),
  );
  c.addAccount('alice.near', 1000n * NEAR, alice);
  c.addAccount('bob.near', 100n * NEAR, bob);
  return c;
}

export const stateGet = (c: TestChain, key: Uint8Array) => c.state.get(toHex(key));

export function view(c: TestChain, accountId: string, methodName: string): string {
  const r = viewCall({
    config,
    state: { get: (k) => stateGet(c, k) },
    accountId,
    account: c.account(accountId)!,
    methodName,
    args: new Uint8Array(0),
    blockHash: '11111111111111111111111111111111',
    blockHeight: c.height,
    blockTimestamp: 0n,
    epochHeight: 1,
    chainId: 'test',
    stateRoot: new Uint8Array(32),
    validators: new Map(),
  });
  return Buffer.from(r.result).toString();
}
