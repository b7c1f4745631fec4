// Says back whatever it is given: logs it, returns it and (in `keep`) stores it under itself.
@external("env", "input") declare function input(r: u64): void;
@external("env", "register_len") declare function register_len(r: u64): u64;
@external("env", "read_register") declare function read_register(r: u64, p: u64): void;
@external("env", "log_utf8") declare function log_utf8(l: u64, p: u64): void;
@external("env", "value_return") declare function value_return(l: u64, p: u64): void;
@external("env", "storage_write") declare function storage_write(kl: u64, kp: u64, vl: u64, vp: u64, r: u64): u64;

function args(): ArrayBuffer {
  input(0);
  const buf = new ArrayBuffer(<i32>register_len(0));
  read_register(0, changetype<usize>(buf));
  return buf;
}

export function say(): void {
  const a = args();
  log_utf8(a.byteLength, changetype<usize>(a));
  value_return(a.byteLength, changetype<usize>(a));
}

export function keep(): void {
  const a = args();
  log_utf8(a.byteLength, changetype<usize>(a));
  storage_write(a.byteLength, changetype<usize>(a), a.byteLength, changetype<usize>(a), 0);
  value_return(a.byteLength, changetype<usize>(a));
}
