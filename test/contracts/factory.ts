// A contract of our own (AssemblyScript 0.28, hand-declared NEAR imports) that drives the promise
// host functions through the node: a promise batch with every constructive action, joins with
// promise_and, callbacks reading promise results, and a batch the receiver rejects.
@external("env", "input") declare function input(r: u64): void;
@external("env", "register_len") declare function register_len(r: u64): u64;
@external("env", "read_register") declare function read_register(r: u64, p: u64): void;
@external("env", "current_account_id") declare function current_account_id(r: u64): void;
@external("env", "signer_account_pk") declare function signer_account_pk(r: u64): void;
@external("env", "value_return") declare function value_return(l: u64, p: u64): void;
@external("env", "log_utf8") declare function log_utf8(l: u64, p: u64): void;
@external("env", "promise_batch_create") declare function promise_batch_create(l: u64, p: u64): u64;
@external("env", "promise_batch_action_create_account") declare function promise_batch_action_create_account(i: u64): void;
@external("env", "promise_batch_action_transfer") declare function promise_batch_action_transfer(i: u64, amount: u64): void;
@external("env", "promise_batch_action_deploy_contract") declare function promise_batch_action_deploy_contract(i: u64, l: u64, p: u64): void;
@external("env", "promise_batch_action_add_key_with_full_access") declare function promise_batch_action_add_key_with_full_access(i: u64, l: u64, p: u64, nonce: u64): void;
@external("env", "promise_batch_action_add_key_with_function_call") declare function promise_batch_action_add_key_with_function_call(i: u64, l: u64, p: u64, nonce: u64, allowance: u64, rl: u64, rp: u64, ml: u64, mp: u64): void;
@external("env", "promise_batch_action_function_call_weight") declare function promise_batch_action_function_call_weight(i: u64, ml: u64, mp: u64, al: u64, ap: u64, amount: u64, gas: u64, weight: u64): void;
@external("env", "promise_batch_action_delete_key") declare function promise_batch_action_delete_key(i: u64, l: u64, p: u64): void;
@external("env", "promise_batch_action_delete_account") declare function promise_batch_action_delete_account(i: u64, l: u64, p: u64): void;
@external("env", "promise_create") declare function promise_create(al: u64, ap: u64, ml: u64, mp: u64, gl: u64, gp: u64, amount: u64, gas: u64): u64;
@external("env", "promise_and") declare function promise_and(p: u64, n: u64): u64;
@external("env", "promise_then") declare function promise_then(i: u64, al: u64, ap: u64, ml: u64, mp: u64, gl: u64, gp: u64, amount: u64, gas: u64): u64;
@external("env", "promise_return") declare function promise_return(i: u64): void;
@external("env", "promise_results_count") declare function promise_results_count(): u64;
@external("env", "promise_result") declare function promise_result(i: u64, r: u64): u64;

const TGAS: u64 = 1_000_000_000_000;

function reg(r: u64): ArrayBuffer {
  const buf = new ArrayBuffer(<i32>register_len(r));
  read_register(r, changetype<usize>(buf));
  return buf;
}

function str(s: string): ArrayBuffer {
  return String.UTF8.encode(s);
}

function u128(lo: u64, hi: u64 = 0): ArrayBuffer {
  const b = new ArrayBuffer(16);
  store<u64>(changetype<usize>(b), lo);
  store<u64>(changetype<usize>(b) + 8, hi);
  return b;
}

function child(): ArrayBuffer {
  current_account_id(0);
  return str("kid." + String.UTF8.decode(reg(0)));
}

function p(b: ArrayBuffer): u64 {
  return changetype<usize>(b);
}

/** Input: the child's contract code. Creates, funds, deploys, keys and calls the child in one batch. */
export function spawn(): void {
  input(0);
  const code = reg(0);
  signer_account_pk(1);
  const pk = reg(1);
  const kid = child();
  const i = promise_batch_create(kid.byteLength, p(kid));
  promise_batch_action_create_account(i);
  const amount = u128(10018821026034483200, 271050); // 5 NEAR
  promise_batch_action_transfer(i, p(amount));
  promise_batch_action_deploy_contract(i, code.byteLength, p(code));
  promise_batch_action_add_key_with_full_access(i, pk.byteLength, p(pk), 0);
  // A second key for the function-call permission: the signer's key with its last byte flipped.
  const pk2 = pk.slice(0);
  store<u8>(changetype<usize>(pk2) + 32, load<u8>(changetype<usize>(pk) + 32) ^ 1);
  const methods = str("increment,get");
  const allowance = u128(3875820019684212736, 54); // 0.001 NEAR
  promise_batch_action_add_key_with_function_call(i, pk2.byteLength, p(pk2), 1, p(allowance), kid.byteLength, p(kid), methods.byteLength, p(methods));
  const m = str("increment");
  const zero = u128(0);
  promise_batch_action_function_call_weight(i, m.byteLength, p(m), 0, 0, p(zero), 5 * TGAS, 1);
  promise_return(i);
}

/** Two calls joined with promise_and, then a callback that sees both results. */
export function join(): void {
  const kid = child();
  const get = str("get");
  const zero = u128(0);
  const a = promise_create(kid.byteLength, p(kid), get.byteLength, p(get), 0, 0, p(zero), 5 * TGAS);
  const b = promise_create(kid.byteLength, p(kid), get.byteLength, p(get), 0, 0, p(zero), 5 * TGAS);
  const both = new ArrayBuffer(16);
  store<u64>(changetype<usize>(both), a);
  store<u64>(changetype<usize>(both) + 8, b);
  const joined = promise_and(p(both), 2);
  current_account_id(0);
  const me = reg(0);
  const cb = str("collect");
  const then = promise_then(joined, me.byteLength, p(me), cb.byteLength, p(cb), 0, 0, p(zero), 10 * TGAS);
  promise_return(then);
}

export function collect(): void {
  const n = promise_results_count();
  let out = "";
  for (let i: u64 = 0; i < n; i++) {
    const status = promise_result(i, 0);
    out += (i > 0 ? "+" : "") + (status == 1 ? String.UTF8.decode(reg(0)) : "failed");
  }
  const s = str(out);
  log_utf8(s.byteLength, p(s));
  value_return(s.byteLength, p(s));
}

/** Asks the child to delete its key and itself; only the child may, so the receipt fails. */
export function retire(): void {
  signer_account_pk(1);
  const pk = reg(1);
  current_account_id(0);
  const me = reg(0);
  const kid = child();
  const i = promise_batch_create(kid.byteLength, p(kid));
  promise_batch_action_delete_key(i, pk.byteLength, p(pk));
  promise_batch_action_delete_account(i, me.byteLength, p(me));
  promise_return(i);
}

@external("env", "promise_batch_action_stake") declare function promise_batch_action_stake(i: u64, amount: u64, l: u64, p: u64): void;
@external("env", "signer_account_id") declare function signer_account_id(r: u64): void;

/**
 * On its own account: add a key and delete it again, then stake 1000 NEAR with the signer's key (above
 * the localnet chain's minimum stake, about 800 NEAR).
 */
export function keys_and_stake(): void {
  signer_account_pk(1);
  const pk = reg(1);
  const pk2 = pk.slice(0);
  store<u8>(changetype<usize>(pk2) + 32, load<u8>(changetype<usize>(pk) + 32) ^ 2);
  current_account_id(0);
  const me = reg(0);
  const i = promise_batch_create(me.byteLength, p(me));
  promise_batch_action_add_key_with_full_access(i, pk2.byteLength, p(pk2), 0);
  promise_batch_action_delete_key(i, pk2.byteLength, p(pk2));
  const stake = u128(11515845246265065472, 54210108); // 1000 NEAR
  promise_batch_action_stake(i, p(stake), pk.byteLength, p(pk));
  promise_return(i);
}

/** Deletes its own account, sending the balance to the signer. */
export function bye(): void {
  signer_account_id(1);
  const beneficiary = reg(1);
  current_account_id(0);
  const me = reg(0);
  const i = promise_batch_create(me.byteLength, p(me));
  promise_batch_action_delete_account(i, beneficiary.byteLength, p(beneficiary));
  promise_return(i);
}
