// Storage operations in bulk, to reach the limits a function call's storage proof has.
@external("env", "input") declare function input(r: u64): void;
@external("env", "register_len") declare function register_len(r: u64): u64;
@external("env", "read_register") declare function read_register(r: u64, p: u64): void;
@external("env", "storage_write") declare function storage_write(kl: u64, kp: u64, vl: u64, vp: u64, r: u64): u64;
@external("env", "storage_read") declare function storage_read(kl: u64, kp: u64, r: u64): u64;
@external("env", "storage_remove") declare function storage_remove(kl: u64, kp: u64, r: u64): u64;
@external("env", "storage_has_key") declare function storage_has_key(kl: u64, kp: u64): u64;
@external("env", "value_return") declare function value_return(l: u64, p: u64): void;

const X = String.UTF8.encode("x");
const BIG = String.UTF8.encode("big");

/** Where the call's input is, copied into memory. */
function inputAt(): usize {
  input(0);
  const buf = new ArrayBuffer(<i32>register_len(0));
  read_register(0, changetype<usize>(buf));
  return changetype<usize>(buf);
}

/** The call's input as a little-endian u32. */
function arg(): u32 {
  return load<u32>(inputAt());
}

function returnU64(v: u64): void {
  const s = String.UTF8.encode(v.toString());
  value_return(s.byteLength, changetype<usize>(s));
}

/** Removes the key "x" as many times as the input says. */
export function remove_n(): void {
  const n = arg();
  for (let i: u32 = 0; i < n; i++) storage_remove(X.byteLength, changetype<usize>(X), 0);
}

/** Writes a value of the input's length under "big". */
export function write_big(): void {
  const len = arg();
  const buf = new ArrayBuffer(<i32>len);
  memory.fill(changetype<usize>(buf), 0x61, len);
  storage_write(BIG.byteLength, changetype<usize>(BIG), len, changetype<usize>(buf), 0);
}

/** Reads "big" and returns its length. */
export function read_big(): void {
  if (storage_read(BIG.byteLength, changetype<usize>(BIG), 0) == 0) returnU64(0);
  else returnU64(register_len(0));
}

export function has_big(): void {
  returnU64(storage_has_key(BIG.byteLength, changetype<usize>(BIG)));
}

export function remove_big(): void {
  storage_remove(BIG.byteLength, changetype<usize>(BIG), 0);
}

/** Input: a key byte and a little-endian u32 length. Writes that many bytes, all equal to the key
 * byte plus one, under the key: values under distinct keys differ, so none is recorded twice. */
export function write_at(): void {
  const key = inputAt();
  const len = load<u32>(key + 1);
  const value = new ArrayBuffer(<i32>len);
  memory.fill(changetype<usize>(value), load<u8>(key) + 1, len);
  storage_write(1, key, len, changetype<usize>(value), 0);
}

/** Input: a key byte. Reads the value under it and returns its length. */
export function read_at(): void {
  if (storage_read(1, inputAt(), 0) == 0) returnU64(0);
  else returnU64(register_len(0));
}
