// alt_bn128 host functions with nearcore's little-endian encodings, checked against @noble/curves.
import { bn254 } from '@noble/curves/bn254.js';
import t from 'tap';
import { call, contract, freshHash, returned } from './helpers.js';

const G1 = bn254.G1.Point;
const G2 = bn254.G2.Point;

function le32(v: bigint): number[] {
  return Array.from({ length: 32 }, (_, i) => Number((v >> BigInt(8 * i)) & 0xffn));
}
const g1 = (p: InstanceType<typeof G1>) =>
  p.is0() ? new Array(64).fill(0) : [...le32(p.toAffine().x), ...le32(p.toAffine().y)];
const g2 = (p: InstanceType<typeof G2>) => {
  const a = p.toAffine();
  return [...le32(a.x.c0), ...le32(a.x.c1), ...le32(a.y.c0), ...le32(a.y.c1)];
};

// Each method runs the host function on the call's input (value_len u64::MAX reads register 0).
const code = await contract(`
  (func (export "sum") (call $input (i64.const 0)) (call $alt_bn128_g1_sum (i64.const -1) (i64.const 0) (i64.const 1))
    (call $read_register (i64.const 1) (i64.const 0)) (call $value_return (i64.const 64) (i64.const 0)))
  (func (export "multiexp") (call $input (i64.const 0)) (call $alt_bn128_g1_multiexp (i64.const -1) (i64.const 0) (i64.const 1))
    (call $read_register (i64.const 1) (i64.const 0)) (call $value_return (i64.const 64) (i64.const 0)))
  (func (export "pairing") (call $input (i64.const 0))
    (i64.store (i32.const 0) (call $alt_bn128_pairing_check (i64.const -1) (i64.const 0)))
    (call $value_return (i64.const 8) (i64.const 0)))`);
const hash = freshHash();
const run = (method: string, input: number[]) =>
  call({ code, codeHash: hash, method, context: { input: Uint8Array.from(input) } });

t.test('g1_sum adds and subtracts', async (t) => {
  const p = G1.BASE.multiply(7n);
  const q = G1.BASE.multiply(11n);
  const out = returned(run('sum', [0, ...g1(p), 0, ...g1(q), 1, ...g1(p)]));
  t.same([...out], g1(q));
  t.same(
    [...returned(run('sum', [0, ...g1(p), 1, ...g1(p)]))],
    new Array(64).fill(0),
    'P − P is the point at infinity',
  );
  const bad = run('sum', [2, ...g1(p)]);
  t.match(
    JSON.stringify(bad.aborted, (_k, v) => (typeof v === 'bigint' ? String(v) : v)),
    /AltBn128InvalidInput.*invalid bool/,
  );
  const offCurve = run('sum', [0, 1, ...new Array(63).fill(0)]);
  t.match(
    JSON.stringify(offCurve.aborted, (_k, v) => (typeof v === 'bigint' ? String(v) : v)),
    /invalid g1/,
  );
});

t.test('g1_multiexp is Σ scalar·point', async (t) => {
  const p = G1.BASE.multiply(3n);
  const out = returned(run('multiexp', [...g1(p), ...le32(2n), ...g1(G1.BASE), ...le32(5n)]));
  t.same([...out], g1(p.multiply(2n).add(G1.BASE.multiply(5n))));
  const ragged = run('multiexp', [1, 2, 3]);
  t.match(JSON.stringify(ragged.aborted), /cannot be precisely split/);
});

t.test('pairing_check', async (t) => {
  const p = G1.BASE.multiply(5n);
  const q = G2.BASE.multiply(9n);
  const one = returned(run('pairing', [...g1(p), ...g2(q), ...g1(p.negate()), ...g2(q)]));
  t.equal(one[0], 1, 'e(P, Q)·e(−P, Q) = 1');
  const zero = returned(run('pairing', [...g1(p), ...g2(q)]));
  t.equal(zero[0], 0);
  t.equal(returned(run('pairing', []))[0], 1, 'the empty product is 1');
  const a = run('pairing', [...g1(p), ...g2(q)]);
  const b = run('pairing', [...g1(p), ...g2(q), ...g1(p.negate()), ...g2(q)]);
  t.ok(b.burnt_gas > a.burnt_gas, 'each pair costs a pairing element');
});
