// A contract that waits for an answer from outside (NEP-519), the way chain-signature contracts do:
// `request` yields a callback to itself and returns that promise, so the caller's transaction ends
// with whatever `respond` returns; `answer` (another transaction) resumes the yield with its input;
// a request nobody answers times out and `respond` sees a failed promise result. The last request's
// data id stays stored, so a late `answer` tries to resume a yield that is gone.
@external("env", "input") declare function input(r: u64): void;
@external("env", "register_len") declare function register_len(r: u64): u64;
@external("env", "read_register") declare function read_register(r: u64, p: u64): void;
@external("env", "value_return") declare function value_return(l: u64, p: u64): void;
@external("env", "storage_write") declare function storage_write(kl: u64, kp: u64, vl: u64, vp: u64, r: u64): u64;
@external("env", "storage_read") declare function storage_read(kl: u64, kp: u64, r: u64): u64;
@external("env", "storage_has_key") declare function storage_has_key(kl: u64, kp: u64): u64;
@external("env", "promise_yield_create") declare function promise_yield_create(ml: u64, mp: u64, al: u64, ap: u64, gas: u64, weight: u64, r: u64): u64;
@external("env", "promise_yield_resume") declare function promise_yield_resume(dl: u64, dp: u64, pl: u64, pp: u64): u32;
@external("env", "promise_return") declare function promise_return(i: u64): void;
@external("env", "promise_result") declare function promise_result(i: u64, r: u64): u64;

const TGAS: u64 = 1_000_000_000_000;
const FROM_REGISTER: u64 = u64.MAX_VALUE;

function str(s: string): ArrayBuffer {
  return String.UTF8.encode(s);
}

function ret(s: string): void {
  const b = str(s);
  value_return(b.byteLength, changetype<usize>(b));
}

const PENDING = str("pending");

export function request(): void {
  const method = str("respond");
  const p = promise_yield_create(method.byteLength, changetype<usize>(method), 0, 0, 20 * TGAS, 0, 0);
  // The data id is in register 0: remember it for `answer`.
  storage_write(PENDING.byteLength, changetype<usize>(PENDING), FROM_REGISTER, 0, 1);
  promise_return(p);
}

export function answer(): void {
  if (storage_read(PENDING.byteLength, changetype<usize>(PENDING), 2) == 0) {
    ret("false");
    return;
  }
  const id = new ArrayBuffer(32);
  read_register(2, changetype<usize>(id));
  input(0);
  const payload = new ArrayBuffer(<i32>register_len(0));
  read_register(0, changetype<usize>(payload));
  const ok = promise_yield_resume(32, changetype<usize>(id), payload.byteLength, changetype<usize>(payload));
  ret(ok == 1 ? "true" : "false");
}

export function respond(): void {
  if (promise_result(0, 3) == 1) value_return(FROM_REGISTER, 3);
  else ret("\"timed out\"");
}

export function pending(): void {
  ret(storage_has_key(PENDING.byteLength, changetype<usize>(PENDING)) == 1 ? "true" : "false");
}
