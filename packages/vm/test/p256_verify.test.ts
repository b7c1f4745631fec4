// The host functions protocol 85 turned on (`p256_verify_host_fn`, `chain_id_host_fn`), against
// nearcore's own tests: runtime/near-vm-runner/src/logic/tests/p256_verify.rs and
// p256_verify_wycheproof.rs (the vectors, results and charges below are theirs) and context.rs's
// test_chain_id.
import { createHash } from 'node:crypto';
import t from 'tap';
import { call, contract, freshHash, returned, text, u64le } from './helpers.js';

const RET_I64 = (expr: string) =>
  `(i64.store (i32.const 0) ${expr}) (call $value_return (i64.const 8) (i64.const 0))`;
const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));
const sha256 = (b: Uint8Array) => Uint8Array.from(createHash('sha256').update(b).digest());

// Input: u64 sig_len ‖ u64 msg_len ‖ u64 pk_len ‖ sig ‖ msg ‖ pk, read into memory at 1000.
const code = await contract(`
  (func (export "p256")
    (local $s i64) (local $m i64) (local $k i64)
    (call $input (i64.const 1))
    (call $read_register (i64.const 1) (i64.const 1000))
    (local.set $s (i64.load (i32.const 1000)))
    (local.set $m (i64.load (i32.const 1008)))
    (local.set $k (i64.load (i32.const 1016)))
    ${RET_I64(`(call $p256_verify
      (local.get $s) (i64.const 1024)
      (local.get $m) (i64.add (i64.const 1024) (local.get $s))
      (local.get $k) (i64.add (i64.add (i64.const 1024) (local.get $s)) (local.get $m)))`)})
  (func (export "chain_id") (call $chain_id (i64.const 0)) (call $value_return (i64.const -1) (i64.const 0)))
  (func (export "chain_id_twice")
    (call $chain_id (i64.const 0))
    (call $chain_id (i64.const 0))
    (call $value_return (i64.const -1) (i64.const 0)))
`);
const hash = freshHash();

function p256(sig: Uint8Array, msg: Uint8Array, pk: Uint8Array) {
  const input = new Uint8Array(24 + sig.length + msg.length + pk.length);
  const v = new DataView(input.buffer);
  v.setBigUint64(0, BigInt(sig.length), true);
  v.setBigUint64(8, BigInt(msg.length), true);
  v.setBigUint64(16, BigInt(pk.length), true);
  input.set(sig, 24);
  input.set(msg, 24 + sig.length);
  input.set(pk, 24 + sig.length + msg.length);
  return call({ code, codeHash: hash, method: 'p256', context: { input } });
}
const verdict = (o: ReturnType<typeof p256>) => u64le(returned(o));

// RFC 6979 A.2.5's P-256 key; nearcore's estimator contract carries these signatures.
const PK = hex('0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6');
const MSG = new Uint8Array(32).fill(7);
const SIG = hex(
  '11371917ab11ccca08ec7444d8a05dac6c253b19cf163cfb75b408cdd2134ffb502537c7cad66661d4105005fe17a29b5e27ff23a81f9236a548b2eda6861d64',
);
const P256_VERIFY_BASE = 1_300_000_000_000n;
const P256_VERIFY_BYTE = 13_000_000n;
const READ_MEMORY_BYTE = 3_801_333n;

t.test('a valid signature of a prehashed message', async (t) => {
  const o = p256(SIG, MSG, PK);
  t.equal(verdict(o), 1n);
  t.equal(o.profile.getExtCost('p256_verify_base'), P256_VERIFY_BASE);
  t.equal(o.profile.getExtCost('p256_verify_byte'), 32n * P256_VERIFY_BYTE);
  // 129 bytes of signature, message and key, and the 8 value_return reads.
  t.equal(o.profile.getExtCost('read_memory_byte'), (129n + 8n) * READ_MEMORY_BYTE);
  const long = hex(
    '13d8552f4e33c5e5f8533f4c4269e6650f39a1ada74a7d77892cc8116eca810b2b0b120cb942bf934ba2a3edc5a9acb25cc9904ee8ab2e4add0b3f3349f14eb4',
  );
  const o2 = p256(long, new Uint8Array(16384).fill(0x61), PK);
  t.equal(verdict(o2), 1n, 'a longer message: its first 32 bytes are the digest, every byte is charged');
  t.equal(o2.profile.getExtCost('p256_verify_byte'), 16384n * P256_VERIFY_BYTE);
});

t.test('what answers 0', async (t) => {
  const tampered = MSG.slice();
  tampered[0]! ^= 1;
  const o = p256(SIG, tampered, PK);
  t.equal(verdict(o), 0n, 'a tampered message');
  t.equal(o.profile.getExtCost('p256_verify_byte'), 32n * P256_VERIFY_BYTE, 'charged as a valid one');
  const other = hex('036e5b13d8e3aef93aaa60f358ec7f517233b22793a2992622fd3a70482a1b43e1');
  t.equal(verdict(p256(SIG, MSG, other)), 0n, 'another key');
  const zeros = p256(new Uint8Array(64), MSG, PK);
  t.equal(verdict(zeros), 0n, 'a zero signature');
  t.equal(zeros.profile.getExtCost('p256_verify_byte'), 0n, 'refused before the message is read');
  t.equal(zeros.profile.getExtCost('read_memory_byte'), (64n + 8n) * READ_MEMORY_BYTE);
  t.equal(verdict(p256(SIG, MSG, new Uint8Array(33))), 0n, 'a zero key');
  t.equal(verdict(p256(SIG, new Uint8Array(0), PK)), 0n, 'an empty message');
});

t.test('wrong lengths abort with P256VerifyInvalidInput', async (t) => {
  t.same(p256(SIG.subarray(0, 63), MSG, PK).aborted, {
    HostError: { P256VerifyInvalidInput: { msg: 'invalid signature length' } },
  });
  t.same(p256(new Uint8Array(0), MSG, PK).aborted, {
    HostError: { P256VerifyInvalidInput: { msg: 'invalid signature length' } },
  });
  const o = p256(SIG, MSG, PK.subarray(0, 32));
  t.same(o.aborted, { HostError: { P256VerifyInvalidInput: { msg: 'invalid public key length' } } });
  t.equal(o.profile.getExtCost('p256_verify_byte'), 32n * P256_VERIFY_BYTE, 'the message was charged');
});

t.test('Wycheproof vectors (the message argument is SHA-256 of the vector’s message)', async (t) => {
  const key = hex('022927b10512bae3eddcfe467828128bad2903269919f7086069c8c4df6c732838');
  const m = sha256(hex('313233343030'));
  const cases: [string, Uint8Array, Uint8Array, string, bigint][] = [
    [
      'tcId 60',
      key,
      sha256(hex('3639383139')),
      '64a1aab5000d0e804f3e2fc02bdee9be8ff312334e2ba16d11547c97711c898e6af015971cc30be6d1a206d4e013e0997772a2f91d73286ffd683b9bb2cf4f1b',
      1n,
    ],
    [
      'tcId 1',
      key,
      m,
      '2ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e184cd60b855d442f5b3c7b11eb6c4e0ae7525fe710fab9aa7c77a67f79e6fadd76',
      1n,
    ],
    [
      'tcId 171, a high s',
      hex('0268ec6e298eafe16539156ce57a14b04a7047c221bafc3a582eaeb0d857c4d946'),
      m,
      '7fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a97fffffff800000007fffffffffffffffde737d56d38bcf4279dce5617e3192a9',
      1n,
    ],
    ['tcId 11, r = s = 0', key, m, '00'.repeat(64), 0n],
    ['tcId 18, s = 0', key, m, `${'00'.repeat(31)}01${'00'.repeat(32)}`, 0n],
    [
      'tcId 25, r = n',
      key,
      m,
      `ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551${'00'.repeat(32)}`,
      0n,
    ],
    [
      'tcId 4',
      key,
      m,
      'd45c5740946b2a147f59262ee6f5bc90bd01ed280528b62b3aed5fc93f06f739b329f479a2bbd0a5c384ee1493b1f5186a87139cac5df4087c134b49156847db',
      0n,
    ],
    [
      'a compact (0x05) key naming the other y',
      hex('052927b10512bae3eddcfe467828128bad2903269919f7086069c8c4df6c732838'),
      m,
      '2ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e184cd60b855d442f5b3c7b11eb6c4e0ae7525fe710fab9aa7c77a67f79e6fadd76',
      0n,
    ],
  ];
  for (const [name, pk, msg, sig, want] of cases) t.equal(verdict(p256(hex(sig), msg, pk)), want, name);
});

t.test('a compact (0x05) key is the point of its x with the smaller y', async (t) => {
  const { p256: curve } = await import('@noble/curves/nist.js');
  const p = curve.Point.Fp.ORDER;
  // A key whose y is the smaller of y and p − y, so its compact form names it.
  let sk = 1n;
  let point = curve.Point.BASE;
  while (point.toAffine().y > p - point.toAffine().y) point = curve.Point.BASE.multiply(++sk);
  const secret = hex(sk.toString(16).padStart(64, '0'));
  const sig = curve.sign(MSG, secret, { prehash: false, lowS: false });
  const compact = point.toBytes(true);
  compact[0] = 0x05;
  t.equal(verdict(p256(sig, MSG, compact)), 1n);
});

t.test('chain_id writes the chain id into a register', async (t) => {
  const once = call({ code, codeHash: hash, method: 'chain_id', context: { chain_id: 'mainnet' } });
  t.equal(text(returned(once)), 'mainnet');
  const twice = call({ code, codeHash: hash, method: 'chain_id_twice', context: { chain_id: 'mainnet' } });
  const more = (cost: Parameters<typeof once.profile.getExtCost>[0]) =>
    twice.profile.getExtCost(cost) - once.profile.getExtCost(cost);
  // One more call: base, write_register_base and a byte for each of the id's seven.
  t.equal(more('base'), 264_768_111n);
  t.equal(more('write_register_base'), 2_865_522_486n);
  t.equal(more('write_register_byte'), 7n * 3_801_564n);
  const view = call({
    code,
    codeHash: hash,
    method: 'chain_id',
    context: { chain_id: 'testnet', view_config: { max_gas_burnt: 300_000_000_000_000n } },
  });
  t.equal(text(returned(view)), 'testnet', 'allowed in view calls');
});
