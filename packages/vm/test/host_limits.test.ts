// Host functions at their limits and on malformed arguments, as nearcore's logic.rs answers them: the
// order of ecrecover's checks and its messages, a storage value one byte over the limit, promise_and
// counting joined dependencies, and UTF-16 logs read up to a NUL pair. The limits are the parameter
// snapshot's (max_length_storage_value 4194304, max_number_input_data_dependencies 128,
// max_total_log_length 16384).
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import t from 'tap';
import { call, contract, freshHash, rawConfig, returned, u64le } from './helpers.js';

const ext = (name: string): bigint =>
  BigInt((rawConfig.wasm_config.ext_costs as Record<string, number>)[name]!);
const u64 = (v: bigint): Uint8Array => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return b;
};
const be32 = (v: bigint): Uint8Array => Uint8Array.from(Buffer.from(v.toString(16).padStart(64, '0'), 'hex'));
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const code = await contract(`
  (data (i32.const 600) "a.near")
  (data (i32.const 620) "key")
  (data (i32.const 700) "h\\00i\\00\\00\\00")
  (data (i32.const 720) "\\00\\d8")
  ;; input: sig_len, hash_len, v, malleability flag (u64 each), then the signature at 32 and the
  ;; hash at 128; the verdict and, when 1, the recovered key (register 1).
  (func $ecrecover_input (result i64)
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 0))
    (call $ecrecover (i64.load (i32.const 8)) (i64.const 128) (i64.load (i32.const 0)) (i64.const 32)
      (i64.load (i32.const 16)) (i64.load (i32.const 24)) (i64.const 1)))
  (func (export "ecrecover")
    (i64.store (i32.const 1000) (call $ecrecover_input))
    (call $value_return (i64.const 8) (i64.const 1000)))
  (func (export "ecrecover_key")
    (drop (call $ecrecover_input))
    (call $value_return (i64.const -1) (i64.const 1)))
  ;; the whole input as the value of "key", read from register 0
  (func (export "write_input")
    (call $input (i64.const 0))
    (drop (call $storage_write (i64.const 3) (i64.const 620) (i64.const -1) (i64.const 0) (i64.const 1))))
  ;; n promises to a.near, their indices at $at
  (func $make (param $n i64) (param $at i32)
    (local $i i64)
    (block $done (loop $next
      (br_if $done (i64.ge_u (local.get $i) (local.get $n)))
      (i64.store (i32.add (local.get $at) (i32.wrap_i64 (i64.mul (local.get $i) (i64.const 8))))
        (call $promise_batch_create (i64.const 6) (i64.const 600)))
      (local.set $i (i64.add (local.get $i) (i64.const 1)))
      (br $next))))
  ;; input: n; joins n new promises and returns the join's index
  (func (export "and_flat")
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 0))
    (call $make (i64.load (i32.const 0)) (i32.const 2000))
    (i64.store (i32.const 8) (call $promise_and (i64.const 2000) (i64.load (i32.const 0))))
    (call $value_return (i64.const 8) (i64.const 8)))
  ;; three joins of 100 promises each, then a join of the three joins
  (func (export "and_nested")
    (call $make (i64.const 100) (i32.const 2000))
    (i64.store (i32.const 16) (call $promise_and (i64.const 2000) (i64.const 100)))
    (call $make (i64.const 100) (i32.const 2000))
    (i64.store (i32.const 24) (call $promise_and (i64.const 2000) (i64.const 100)))
    (call $make (i64.const 100) (i32.const 2000))
    (i64.store (i32.const 32) (call $promise_and (i64.const 2000) (i64.const 100)))
    (drop (call $promise_and (i64.const 16) (i64.const 3))))
  (func (export "utf16_nul") (call $log_utf16 (i64.const -1) (i64.const 700)))
  (func (export "utf16_odd") (call $log_utf16 (i64.const 3) (i64.const 700)))
  (func (export "utf16_surrogate") (call $log_utf16 (i64.const 2) (i64.const 720)))
  ;; 16,400 bytes of 'A' from 10000 with no NUL pair: the search passes the log limit
  (func (export "utf16_unterminated")
    (local $p i32)
    (local.set $p (i32.const 10000))
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $p) (i32.const 26400)))
      (i32.store (local.get $p) (i32.const 0x41414141))
      (local.set $p (i32.add (local.get $p) (i32.const 4)))
      (br $next)))
    (call $log_utf16 (i64.const -1) (i64.const 10000)))
  (func (export "iter_range")
    (drop (call $storage_iter_range (i64.const 0) (i64.const 0) (i64.const 0) (i64.const 0))))
  (func (export "iter_next")
    (drop (call $storage_iter_next (i64.const 0) (i64.const 0) (i64.const 0))))
`);
const hash = freshHash();
const run = (method: string, input: Uint8Array = new Uint8Array(0)) =>
  call({ code, codeHash: hash, method, context: { input } });

/** ecrecover's input as the contract above reads it; the signature and hash lengths are the arrays'. */
function ecInput(sig: Uint8Array, digest: Uint8Array, v: bigint, flag: bigint): Uint8Array {
  const out = new Uint8Array(128 + digest.length);
  out.set(u64(BigInt(sig.length)), 0);
  out.set(u64(BigInt(digest.length)), 8);
  out.set(u64(v), 16);
  out.set(u64(flag), 24);
  out.set(sig, 32);
  out.set(digest, 128);
  return out;
}

t.test("ecrecover checks its arguments in nearcore's order, with nearcore's messages", async (t) => {
  const sk = new Uint8Array(32).fill(11);
  const digest = keccak_256(new TextEncoder().encode('limits'));
  const recovered = secp256k1.sign(digest, sk, { prehash: false, format: 'recovered' });
  const sig = recovered.subarray(1);
  const v = BigInt(recovered[0]!);
  const aborted = (input: Uint8Array) => run('ecrecover', input).aborted;
  const msg = (m: string) => ({ HostError: { ECRecoverError: { msg: m } } });

  t.equal(u64le(returned(run('ecrecover', ecInput(sig, digest, v, 0n)))), 1n, 'a good signature');
  // The signature's length is checked first, then v, then the hash's length, then the flag.
  t.same(
    aborted(ecInput(sig.subarray(0, 63), digest.subarray(0, 31), 9n, 7n)),
    msg('The length of the signature: 63, exceeds the limit of 64 bytes'),
  );
  t.same(
    aborted(ecInput(new Uint8Array([...sig, 0]), digest, v, 0n)),
    msg('The length of the signature: 65, exceeds the limit of 64 bytes'),
  );
  t.same(
    aborted(ecInput(sig, digest.subarray(0, 31), 4n, 7n)),
    msg('V recovery byte 0 through 3 are valid but was provided 4'),
  );
  t.same(
    aborted(ecInput(sig, digest.subarray(0, 31), v, 7n)),
    msg('The length of the hash: 31, exceeds the limit of 32 bytes'),
  );
  t.same(
    aborted(ecInput(sig, new Uint8Array([...digest, 0]), v, 7n)),
    msg('The length of the hash: 33, exceeds the limit of 32 bytes'),
  );
  t.same(aborted(ecInput(sig, digest, v, 2n)), msg('Malleability flag needs to be 0 or 1, but is instead 2'));
});

t.test('ecrecover refuses out-of-range values with 0, and high s only when asked to', async (t) => {
  const sk = new Uint8Array(32).fill(12);
  const digest = keccak_256(new TextEncoder().encode('malleable'));
  const recovered = secp256k1.sign(digest, sk, { prehash: false, format: 'recovered' });
  const r = recovered.subarray(1, 33);
  const s = BigInt(`0x${Buffer.from(recovered.subarray(33)).toString('hex')}`);
  const v = BigInt(recovered[0]!);
  const key = secp256k1.getPublicKey(sk, false).subarray(1);
  // (r, n − s) with the other parity is the same signature's twin: it recovers the same key.
  const twin = new Uint8Array([...r, ...be32(N - s)]);
  t.ok(N - s > N / 2n, 'the twin has the high s');
  const verdict = (sig: Uint8Array, vv: bigint, flag: bigint) =>
    u64le(returned(run('ecrecover', ecInput(sig, digest, vv, flag))));
  t.equal(verdict(twin, v ^ 1n, 0n), 1n, 'high s accepted without the malleability flag');
  t.same(returned(run('ecrecover_key', ecInput(twin, digest, v ^ 1n, 0n))), key, 'and it recovers the key');
  t.equal(verdict(twin, v ^ 1n, 1n), 0n, 'refused with the flag');
  t.equal(verdict(new Uint8Array([...r, ...be32(N / 2n + 1n)]), v, 1n), 0n, 's = n/2 + 1 is already high');
  t.equal(verdict(new Uint8Array([...new Uint8Array(32), ...be32(s)]), v, 0n), 0n, 'r = 0');
  t.equal(verdict(new Uint8Array([...r, ...new Uint8Array(32)]), v, 0n), 0n, 's = 0');
  t.equal(verdict(new Uint8Array([...be32(N), ...be32(s)]), v, 0n), 0n, 'r = n');
  t.equal(verdict(new Uint8Array([...r, ...be32(N)]), v, 0n), 0n, 's = n');
});

t.test(
  'a storage value one byte over the limit: ValueLengthExceeded, before its bytes are charged',
  async (t) => {
    const limit = 4_194_304;
    const ok = run('write_input', new Uint8Array(limit).fill(1));
    t.equal(ok.aborted, null, 'a value of exactly the limit is written');
    t.equal(
      ok.profile.getExtCost('storage_write_value_byte'),
      BigInt(limit) * ext('storage_write_value_byte'),
    );
    const over = run('write_input', new Uint8Array(limit + 1).fill(1));
    t.same(over.aborted, {
      HostError: { ValueLengthExceeded: { length: BigInt(limit + 1), limit: BigInt(limit) } },
    });
    t.equal(over.profile.getExtCost('storage_write_base'), ext('storage_write_base'));
    t.equal(
      over.profile.getExtCost('storage_write_key_byte'),
      0n,
      'the key bytes are charged after the check',
    );
    t.equal(over.profile.getExtCost('storage_write_value_byte'), 0n);
  },
);

t.test('promise_and counts the receipts it joins, joins of joins included', async (t) => {
  t.equal(u64le(returned(run('and_flat', u64(128n)))), 128n, '128 dependencies: the join is promise 128');
  t.same(run('and_flat', u64(129n)).aborted, {
    HostError: {
      NumberInputDataDependenciesExceeded: { number_of_input_data_dependencies: 129n, limit: 128n },
    },
  });
  // Joins of 100 are within the limit each. Joining three of them fails at the second, which adds
  // all its 100 before the check: 200, not 129 and not 300.
  t.same(run('and_nested').aborted, {
    HostError: {
      NumberInputDataDependenciesExceeded: { number_of_input_data_dependencies: 200n, limit: 128n },
    },
  });
});

t.test('log_utf16: a NUL-terminated string, odd lengths and lone surrogates', async (t) => {
  const nul = run('utf16_nul');
  t.equal(nul.aborted, null);
  t.same(nul.logs, ['hi']);
  // Each u16 read while searching for the NUL pair is charged as a memory read, the pair included;
  // the string's bytes are then read for free and decoded at their length.
  t.equal(nul.profile.getExtCost('read_memory_base'), 3n * ext('read_memory_base'));
  t.equal(nul.profile.getExtCost('read_memory_byte'), 6n * ext('read_memory_byte'));
  t.equal(nul.profile.getExtCost('utf16_decoding_byte'), 4n * ext('utf16_decoding_byte'));
  t.same(run('utf16_odd').aborted, { HostError: 'BadUTF16' });
  t.same(run('utf16_surrogate').aborted, { HostError: 'BadUTF16' });
  // The search stops at the first length past the limit: 16384 + 2.
  t.same(run('utf16_unterminated').aborted, {
    HostError: { TotalLogLengthExceeded: { length: 16386n, limit: 16384n } },
  });
});

t.test('the removed storage iterators are Deprecated, each by its name', async (t) => {
  t.same(run('iter_range').aborted, { HostError: { Deprecated: { method_name: 'storage_iter_range' } } });
  t.same(run('iter_next').aborted, { HostError: { Deprecated: { method_name: 'storage_iter_next' } } });
});
