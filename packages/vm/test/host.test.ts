import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { keccak_256, keccak_512 } from '@noble/hashes/sha3.js';
import t from 'tap';
import { call, contract, freshHash, MockExternal, returned, text, u64le } from './helpers.js';

// value_return(u64::MAX, r) returns register r.
const RET = (reg: number) => `(call $value_return (i64.const -1) (i64.const ${reg}))`;
const RET_I64 = (expr: string) =>
  `(i64.store (i32.const 0) ${expr}) (call $value_return (i64.const 8) (i64.const 0))`;
const u128le = (b: Uint8Array): bigint => {
  let v = 0n;
  for (let i = 15; i >= 0; i--) v = (v << 8n) | BigInt(b[i]!);
  return v;
};

const code = await contract(`
  (data (i32.const 200) "hello")
  (data (i32.const 300) "key")
  (data (i32.const 320) "v1")
  (data (i32.const 340) "value2")
  (data (i32.const 400) "\\e4\\bd\\a0\\e5\\a5\\bd")
  (data (i32.const 420) "h\\00i\\00")
  (data (i32.const 440) "\\ff\\fe")
  (data (i32.const 450) "\\ef\\bb\\bfhi")
  (data (i32.const 460) "\\ff\\feh\\00i\\00")
  (func (export "registers")
    (call $write_register (i64.const 7) (i64.const 5) (i64.const 200))
    (call $read_register (i64.const 7) (i64.const 500))
    (i64.store (i32.const 505) (call $register_len (i64.const 7)))
    (i64.store (i32.const 513) (call $register_len (i64.const 8)))
    (call $value_return (i64.const 21) (i64.const 500)))
  (func (export "bad_register") (call $read_register (i64.const 3) (i64.const 0)))
  (func (export "current_account_id") (call $current_account_id (i64.const 0)) ${RET(0)})
  (func (export "signer_account_id") (call $signer_account_id (i64.const 0)) ${RET(0)})
  (func (export "predecessor_account_id") (call $predecessor_account_id (i64.const 0)) ${RET(0)})
  (func (export "signer_account_pk") (call $signer_account_pk (i64.const 0)) ${RET(0)})
  (func (export "input") (call $input (i64.const 0)) ${RET(0)})
  (func (export "random_seed") (call $random_seed (i64.const 0)) ${RET(0)})
  (func (export "block_index") ${RET_I64('(call $block_index)')})
  (func (export "block_timestamp") ${RET_I64('(call $block_timestamp)')})
  (func (export "epoch_height") ${RET_I64('(call $epoch_height)')})
  (func (export "storage_usage") ${RET_I64('(call $storage_usage)')})
  (func (export "prepaid_gas") ${RET_I64('(call $prepaid_gas)')})
  (func (export "account_balance") (call $account_balance (i64.const 0)) (call $value_return (i64.const 16) (i64.const 0)))
  (func (export "account_locked_balance") (call $account_locked_balance (i64.const 0)) (call $value_return (i64.const 16) (i64.const 0)))
  (func (export "attached_deposit") (call $attached_deposit (i64.const 0)) (call $value_return (i64.const 16) (i64.const 0)))
  (func (export "storage")
    (i64.store8 (i32.const 600) (call $storage_write (i64.const 3) (i64.const 300) (i64.const 2) (i64.const 320) (i64.const 0)))
    (i64.store8 (i32.const 601) (call $storage_write (i64.const 3) (i64.const 300) (i64.const 6) (i64.const 340) (i64.const 0)))
    (i64.store8 (i32.const 602) (call $storage_has_key (i64.const 3) (i64.const 300)))
    (i64.store8 (i32.const 603) (call $storage_read (i64.const 3) (i64.const 300) (i64.const 1)))
    (i64.store8 (i32.const 604) (call $storage_remove (i64.const 3) (i64.const 300) (i64.const 2)))
    (i64.store8 (i32.const 605) (call $storage_has_key (i64.const 3) (i64.const 300)))
    (i64.store8 (i32.const 606) (call $storage_read (i64.const 3) (i64.const 300) (i64.const 3)))
    (call $read_register (i64.const 0) (i64.const 607))
    (call $read_register (i64.const 1) (i64.const 609))
    (call $read_register (i64.const 2) (i64.const 615))
    (call $value_return (i64.const 21) (i64.const 600)))
  (func (export "write_only")
    (drop (call $storage_write (i64.const 3) (i64.const 300) (i64.const 6) (i64.const 340) (i64.const 0))))
  (func (export "logs")
    (call $log_utf8 (i64.const 6) (i64.const 400))
    (call $log_utf8 (i64.const -1) (i64.const 200))
    (call $log_utf16 (i64.const 4) (i64.const 420)))
  (func (export "bad_utf8") (call $log_utf8 (i64.const 2) (i64.const 440)))
  (func (export "bom_logs")
    (call $log_utf8 (i64.const 5) (i64.const 450))
    (call $log_utf16 (i64.const 6) (i64.const 460)))
  (func (export "bom_panic") (call $panic_utf8 (i64.const 5) (i64.const 450)))
  (func (export "panic") (call $panic))
  (func (export "panic_utf8") (call $panic_utf8 (i64.const 5) (i64.const 200)))
  (func (export "trap") unreachable)
  (func (export "oob") (drop (i32.load (i32.const -1))))
  (func (export "div0") (drop (i32.div_u (i32.const 1) (i32.const 0))))
  (func (export "sha256") (call $sha256 (i64.const 5) (i64.const 200) (i64.const 0)) ${RET(0)})
  (func (export "keccak256") (call $keccak256 (i64.const 5) (i64.const 200) (i64.const 0)) ${RET(0)})
  (func (export "keccak512") (call $keccak512 (i64.const 5) (i64.const 200) (i64.const 0)) ${RET(0)})
  (func (export "ripemd160") (call $ripemd160 (i64.const 5) (i64.const 200) (i64.const 0)) ${RET(0)})
  (func (export "hash_input_register")
    (call $input (i64.const 1))
    (call $sha256 (i64.const -1) (i64.const 1) (i64.const 0)) ${RET(0)})
  (func (export "ecrecover")
    (call $input (i64.const 1))
    (call $read_register (i64.const 1) (i64.const 1000))
    ;; input: hash(32) ‖ sig(64) ‖ v(1)
    (i64.store (i32.const 0) (call $ecrecover (i64.const 32) (i64.const 1000) (i64.const 64) (i64.const 1032)
      (i64.load8_u (i32.const 1096)) (i64.const 0) (i64.const 0)))
    (call $value_return (i64.const 8) (i64.const 0)))
  (func (export "recovered") (call $ecrecover_wrapper) ${RET(0)})
  (func $ecrecover_wrapper
    (call $input (i64.const 1))
    (call $read_register (i64.const 1) (i64.const 1000))
    (drop (call $ecrecover (i64.const 32) (i64.const 1000) (i64.const 64) (i64.const 1032)
      (i64.load8_u (i32.const 1096)) (i64.const 0) (i64.const 0))))
  (func (export "ed25519_verify")
    (call $input (i64.const 1))
    (call $read_register (i64.const 1) (i64.const 1000))
    ;; input: sig(64) ‖ pk(32) ‖ msg(rest = 5 bytes)
    ${RET_I64('(call $ed25519_verify (i64.const 64) (i64.const 1000) (i64.const 5) (i64.const 1096) (i64.const 32) (i64.const 1064))')})
  (func (export "ed25519_verify_any")
    (call $input (i64.const 1))
    (call $read_register (i64.const 1) (i64.const 1000))
    ;; input: sig(64) ‖ pk(32) ‖ msg(the rest)
    ${RET_I64('(call $ed25519_verify (i64.const 64) (i64.const 1000) (i64.sub (call $register_len (i64.const 1)) (i64.const 96)) (i64.const 1096) (i64.const 32) (i64.const 1064))')})
  (func (export "validator")
    (call $validator_stake (i64.const 10) (i64.const 700) (i64.const 0))
    (call $validator_total_stake (i64.const 16))
    (call $value_return (i64.const 32) (i64.const 0)))
  (data (i32.const 700) "alice.near")
  (func (export "iter") (drop (call $storage_iter_prefix (i64.const 0) (i64.const 0))))
`);
const hash = freshHash();
const run = (method: string, o: Omit<Parameters<typeof call>[0], 'code' | 'codeHash' | 'method'> = {}) =>
  call({ code, codeHash: hash, method, ...o });

t.test('registers', async (t) => {
  const out = returned(run('registers'));
  t.equal(text(out.subarray(0, 5)), 'hello');
  t.equal(u64le(out.subarray(5)), 5n);
  t.equal(u64le(out.subarray(13)), (1n << 64n) - 1n, 'unused register has length u64::MAX');
  t.same(run('bad_register').aborted, { HostError: { InvalidRegisterId: { register_id: 3n } } });
});

t.test('context getters', async (t) => {
  t.equal(text(returned(run('current_account_id'))), 'contract.near');
  t.equal(text(returned(run('signer_account_id'))), 'alice.near');
  t.equal(text(returned(run('predecessor_account_id'))), 'bob.near');
  t.same(
    returned(run('signer_account_pk', { context: { signer_account_pk: new Uint8Array([0, 1, 2]) } })),
    [0, 1, 2],
  );
  t.equal(
    text(returned(run('input', { context: { input: new TextEncoder().encode('{"a":1}') } }))),
    '{"a":1}',
  );
  t.same(returned(run('random_seed')), new Uint8Array(32).fill(9));
  t.equal(u64le(returned(run('block_index'))), 10n);
  t.equal(u64le(returned(run('block_timestamp'))), 1_700_000_000_000_000_000n);
  t.equal(u64le(returned(run('epoch_height'))), 3n);
  t.equal(u64le(returned(run('storage_usage'))), 1000n);
  t.equal(u64le(returned(run('prepaid_gas'))), 300_000_000_000_000n);
  t.equal(u128le(returned(run('account_balance'))), 1_000_005n, 'balance includes the attached deposit');
  t.equal(u128le(returned(run('account_locked_balance'))), 7n);
  t.equal(u128le(returned(run('attached_deposit'))), 5n);
  const v = returned(run('validator'));
  t.equal(u128le(v), 100n);
  t.equal(u128le(v.subarray(16)), 100n);
});

t.test('storage returns previous values and tracks storage usage', async (t) => {
  const ext = new MockExternal();
  const out = run('storage', { external: ext });
  t.equal(out.aborted, null);
  const r = returned(out);
  t.same([...r.subarray(0, 7)], [0, 1, 1, 1, 1, 0, 0]);
  t.equal(text(r.subarray(7, 9)), 'v1', 'overwrite put the evicted value in the register');
  t.equal(text(r.subarray(9, 15)), 'value2');
  t.equal(text(r.subarray(15, 21)), 'value2', 'remove put the removed value in the register');
  t.equal(ext.storage.size, 0);
  t.equal(out.storage_usage, 1000n);
  const w = run('write_only', { external: ext });
  t.equal(w.storage_usage, 1000n + 3n + 6n + 40n, 'key + value + num_extra_bytes_record');
  t.equal(text(ext.storage.get(Buffer.from('key').toString('hex'))!), 'value2');
  t.same(run('iter').aborted, { HostError: { Deprecated: { method_name: 'storage_iter_prefix' } } });
});

t.test('logs, panics and traps', async (t) => {
  const logs = run('logs');
  t.equal(logs.aborted, null);
  t.same(logs.logs, ['你好', 'hello', 'hi']);
  t.same(run('bad_utf8').aborted, { HostError: 'BadUTF8' });
  // Rust's String::from_utf8 and from_utf16 keep a leading byte-order mark as U+FEFF.
  t.same(run('bom_logs').logs, ['\uFEFFhi', '\uFEFFhi']);
  t.same(run('bom_panic').aborted, { HostError: { GuestPanic: { panic_msg: '\uFEFFhi' } } });
  t.same(run('panic').aborted, { HostError: { GuestPanic: { panic_msg: 'explicit guest panic' } } });
  t.same(run('panic_utf8').aborted, { HostError: { GuestPanic: { panic_msg: 'hello' } } });
  t.same(run('trap').aborted, { WasmTrap: 'Unreachable' });
  t.same(run('oob').aborted, { WasmTrap: 'MemoryOutOfBounds' });
  t.same(run('div0').aborted, { WasmTrap: 'IllegalArithmetic' });
  const failed = run('trap');
  t.ok(failed.burnt_gas > 0n, 'a trapped call still burns what it ran');
});

t.test('hash vectors', async (t) => {
  const msg = new TextEncoder().encode('hello');
  t.same(returned(run('sha256')), createHash('sha256').update(msg).digest());
  t.equal(
    Buffer.from(returned(run('sha256'))).toString('hex'),
    '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824',
  );
  t.equal(
    Buffer.from(returned(run('keccak256'))).toString('hex'),
    '1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8',
  );
  t.same(returned(run('keccak256')), keccak_256(msg));
  t.same(returned(run('keccak512')), keccak_512(msg));
  t.equal(
    Buffer.from(returned(run('ripemd160'))).toString('hex'),
    '108f07b8382412612c048d07d13f814118445acd',
  );
  t.same(returned(run('ripemd160')), ripemd160(msg));
  const viaRegister = returned(run('hash_input_register', { context: { input: msg } }));
  t.same(viaRegister, createHash('sha256').update(msg).digest(), 'u64::MAX length reads a register');
});

t.test('ecrecover and ed25519_verify', async (t) => {
  const { secp256k1 } = await import('@noble/curves/secp256k1.js');
  const { ed25519 } = await import('@noble/curves/ed25519.js');
  const sk = new Uint8Array(32).fill(7);
  const digest = keccak_256(new TextEncoder().encode('message'));
  const sig = secp256k1.sign(digest, sk, { prehash: false, format: 'recovered' });
  // 'recovered' is recovery ‖ r ‖ s; NEAR wants r ‖ s and v separately.
  const input = new Uint8Array([...digest, ...sig.subarray(1), sig[0]!]);
  t.equal(u64le(returned(run('ecrecover', { context: { input } }))), 1n);
  const pk = secp256k1.getPublicKey(sk, false).subarray(1);
  t.same(returned(run('recovered', { context: { input } })), pk);
  const bad = input.slice();
  bad[96] = 5;
  t.same(run('ecrecover', { context: { input: bad } }).aborted, {
    HostError: { ECRecoverError: { msg: 'V recovery byte 0 through 3 are valid but was provided 5' } },
  });

  const edSk = new Uint8Array(32).fill(3);
  const edPk = ed25519.getPublicKey(edSk);
  const msg = new TextEncoder().encode('hello');
  const edSig = ed25519.sign(msg, edSk);
  const ok = new Uint8Array([...edSig, ...edPk, ...msg]);
  t.equal(u64le(returned(run('ed25519_verify', { context: { input: ok } }))), 1n);
  const tampered = ok.slice();
  tampered[100] ^= 1;
  t.equal(u64le(returned(run('ed25519_verify', { context: { input: tampered } }))), 0n);
});

t.test(
  "ed25519_verify gives ed25519-dalek verify's verdicts on ed25519-speccheck's twelve cases",
  async (t) => {
    // nearcore's host function is dalek's `VerifyingKey::from_bytes` then `verify`: cofactorless, small-order
    // keys and R allowed, S canonical, the bytes hashed as given. The verdicts are the table's for Dalek.
    const spec = JSON.parse(
      readFileSync(join(import.meta.dirname, 'fixtures', 'ed25519_speccheck.json'), 'utf8'),
    ) as {
      verdicts: { Dalek: string };
      cases: { message: string; pub_key: string; signature: string }[];
    };
    const hex = (h: string) => Buffer.from(h, 'hex');
    const verdicts = spec.cases
      .map((c) => {
        const input = new Uint8Array(Buffer.concat([hex(c.signature), hex(c.pub_key), hex(c.message)]));
        return u64le(returned(run('ed25519_verify_any', { context: { input } }))) === 1n ? 'V' : 'X';
      })
      .join('');
    t.equal(verdicts, spec.verdicts.Dalek);
    t.equal(verdicts, 'VVVVXXXXXXXV');
  },
);

t.test('view calls refuse state-changing host functions', async (t) => {
  const view = { view_config: { max_gas_burnt: 300_000_000_000_000n } };
  t.same(run('storage', { context: view }).aborted, {
    HostError: { ProhibitedInView: { method_name: 'storage_write' } },
  });
  t.same(run('signer_account_id', { context: view }).aborted, {
    HostError: { ProhibitedInView: { method_name: 'signer_account_id' } },
  });
  t.same(run('prepaid_gas', { context: view }).aborted, {
    HostError: { ProhibitedInView: { method_name: 'prepaid_gas' } },
  });
  t.equal(text(returned(run('current_account_id', { context: view }))), 'contract.near');
});

t.test('a log whose UTF-8 outgrows the limit its UTF-16 passed reports its length twice', async (t) => {
  // log_utf16 checks the UTF-16 bytes against what is left of max_total_log_length (16384); the
  // message pushed is its UTF-8 form. nearcore's checked_push_log adds that length to the total and
  // then reports the total plus the length again (ExecutionResultState::total_log_length_exceeded).
  // 6000 × U+20AC: 12000 bytes of UTF-16, 18000 of UTF-8.
  const euros = await contract(`
    (data (i32.const 1000) "${'\\ac\\20'.repeat(6000)}")
    (func (export "euros") (call $log_utf16 (i64.const 12000) (i64.const 1000)))
    (func (export "long_utf8") (call $log_utf8 (i64.const 16385) (i64.const 1000)))`);
  const hash = freshHash();
  const exceeded = (method: string) =>
    call({ code: euros, codeHash: hash, method, external: new MockExternal() }).aborted;
  t.same(exceeded('euros'), { HostError: { TotalLogLengthExceeded: { length: 36000n, limit: 16384n } } });
  // Caught before decoding: the bytes asked for, once.
  t.same(exceeded('long_utf8'), { HostError: { TotalLogLengthExceeded: { length: 16385n, limit: 16384n } } });
});
