// The relay contract of the cross-shard tests: a call fans out to one or two contracts, joined with
// promise_and, and a callback on the caller records what each returned.
import { wat } from '../../../test/helpers/wat.js';

/**
 * go: input is an id (8 bytes), a count n (1 or 2), then n slots of 34 bytes: [fail][len][account
 * id]. It calls work([fail] ++ id) on each account, the attached deposit going to the first, joins
 * the two with promise_and, and then calls done(id) on itself.
 * work: traps if fail is set, else returns the id.
 * done: writes, under the id, [n][status of each result][the id each successful one returned, or
 * eight zero bytes]; in `relay('return')` it returns that record instead, touching no storage.
 */
export const relay = (record: 'write' | 'return') =>
  wat(`(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "read_register" (func $reg (param i64 i64)))
  (import "env" "register_len" (func $reglen (param i64) (result i64)))
  (import "env" "current_account_id" (func $me (param i64)))
  (import "env" "attached_deposit" (func $deposit (param i64)))
  (import "env" "promise_create" (func $create (param i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
  (import "env" "promise_then" (func $then (param i64 i64 i64 i64 i64 i64 i64 i64 i64) (result i64)))
  (import "env" "promise_and" (func $and (param i64 i64) (result i64)))
  (import "env" "promise_results_count" (func $count (result i64)))
  (import "env" "promise_result" (func $result (param i64 i64) (result i64)))
  (import "env" "value_return" (func $return (param i64 i64)))
  (import "env" "storage_write" (func $write (param i64 i64 i64 i64 i64) (result i64)))
  (memory 1)
  (data (i32.const 0) "work")
  (data (i32.const 8) "done")
  ;; calls work on slot i with the u128 at amount; its arguments are built at 128 + 16 i
  (func $call (param $i i32) (param $amount i64) (result i64)
    (local $slot i32) (local $args i32)
    (local.set $slot (i32.add (i32.const 1033) (i32.mul (local.get $i) (i32.const 34))))
    (local.set $args (i32.add (i32.const 128) (i32.mul (local.get $i) (i32.const 16))))
    (i32.store8 (local.get $args) (i32.load8_u (local.get $slot)))
    (i64.store (i32.add (local.get $args) (i32.const 1)) (i64.load (i32.const 1024)))
    (call $create
      (i64.extend_i32_u (i32.load8_u (i32.add (local.get $slot) (i32.const 1))))
      (i64.extend_i32_u (i32.add (local.get $slot) (i32.const 2)))
      (i64.const 4) (i64.const 0)
      (i64.const 9) (i64.extend_i32_u (local.get $args))
      (local.get $amount)
      (i64.const 10000000000000)))
  (func (export "go")
    (local $p i64)
    (call $input (i64.const 0))
    (call $reg (i64.const 0) (i64.const 1024))
    (call $deposit (i64.const 64))
    (local.set $p (call $call (i32.const 0) (i64.const 64)))
    (if (i32.eq (i32.load8_u (i32.const 1032)) (i32.const 2))
      (then
        (i64.store (i32.const 96) (local.get $p))
        (i64.store (i32.const 104) (call $call (i32.const 1) (i64.const 32)))
        (local.set $p (call $and (i64.const 96) (i64.const 2)))))
    (call $me (i64.const 1))
    (call $reg (i64.const 1) (i64.const 256))
    (drop (call $then (local.get $p)
      (call $reglen (i64.const 1)) (i64.const 256)
      (i64.const 4) (i64.const 8)
      (i64.const 8) (i64.const 1024)
      (i64.const 32) (i64.const 10000000000000))))
  (func (export "work")
    (call $input (i64.const 0))
    (call $reg (i64.const 0) (i64.const 1024))
    (if (i32.load8_u (i32.const 1024)) (then unreachable))
    (call $return (i64.const 8) (i64.const 1025)))
  (func (export "done")
    (local $n i64) (local $j i64) (local $s i64)
    (call $input (i64.const 0))
    (call $reg (i64.const 0) (i64.const 1024))
    (local.set $n (call $count))
    (i64.store8 (i32.const 2048) (local.get $n))
    (block $end (loop $next
      (br_if $end (i64.ge_u (local.get $j) (local.get $n)))
      (local.set $s (call $result (local.get $j) (i64.const 2)))
      (i64.store8 (i32.wrap_i64 (i64.add (i64.const 2049) (local.get $j))) (local.get $s))
      (if (i64.eq (local.get $s) (i64.const 1))
        (then (call $reg (i64.const 2)
          (i64.add (i64.add (i64.const 2049) (local.get $n)) (i64.mul (local.get $j) (i64.const 8))))))
      (local.set $j (i64.add (local.get $j) (i64.const 1)))
      (br $next)))
    ${
      record === 'write'
        ? `(drop (call $write (i64.const 8) (i64.const 1024)
      (i64.add (i64.const 1) (i64.mul (local.get $n) (i64.const 9))) (i64.const 2048) (i64.const 3)))))`
        : '(call $return (i64.add (i64.const 1) (i64.mul (local.get $n) (i64.const 9))) (i64.const 2048))))'
    }`);

export const RELAY = relay('write');

export type Call = { caller: string; id: Uint8Array; targets: { accountId: string; fail: boolean }[] };

/** go's input for `call`. */
export function goArgs(call: Call): Uint8Array {
  const out = new Uint8Array(9 + 34 * call.targets.length);
  out.set(call.id, 0);
  out[8] = call.targets.length;
  call.targets.forEach(({ accountId, fail }, i) => {
    const name = new TextEncoder().encode(accountId);
    out[9 + 34 * i] = fail ? 1 : 0;
    out[10 + 34 * i] = name.length;
    out.set(name, 11 + 34 * i);
  });
  return out;
}
