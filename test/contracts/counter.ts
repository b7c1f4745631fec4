// A counter for the factory to deploy.
@external("env", "storage_write") declare function storage_write(kl: u64, kp: u64, vl: u64, vp: u64, r: u64): u64;
@external("env", "storage_read") declare function storage_read(kl: u64, kp: u64, r: u64): u64;
@external("env", "register_len") declare function register_len(r: u64): u64;
@external("env", "read_register") declare function read_register(r: u64, p: u64): void;
@external("env", "value_return") declare function value_return(l: u64, p: u64): void;

const KEY = String.UTF8.encode("n");

function read(): i32 {
  if (storage_read(KEY.byteLength, changetype<usize>(KEY), 0) == 0) return 0;
  const buf = new ArrayBuffer(<i32>register_len(0));
  read_register(0, changetype<usize>(buf));
  return load<i32>(changetype<usize>(buf));
}

export function increment(): void {
  const buf = new ArrayBuffer(4);
  store<i32>(changetype<usize>(buf), read() + 1);
  storage_write(KEY.byteLength, changetype<usize>(KEY), 4, changetype<usize>(buf), 0);
}

export function get(): void {
  const s = String.UTF8.encode(read().toString());
  value_return(s.byteLength, changetype<usize>(s));
}
