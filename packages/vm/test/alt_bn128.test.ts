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

// nearcore's InvalidInput::new formats the offending bytes with Rust's `{:X?}`: upper-case hex, no
// padding, in brackets.
const rustHex = (bytes: number[]) => `[${bytes.map((b) => b.toString(16).toUpperCase()).join(', ')}]`;
const invalidInput = (msg: string) => ({ HostError: { AltBn128InvalidInput: { msg } } });

t.test("invalid inputs: nearcore's messages, the offending bytes, the first bad field first", async (t) => {
  const P = bn254.fields.Fp.ORDER;
  const R = bn254.fields.Fr.ORDER;
  // A coordinate of p itself is no field element (decode_fq): the 32 bytes of p, little-endian.
  t.same(
    run('sum', [0, ...le32(P), ...le32(2n)]).aborted,
    invalidInput(
      'invalid fq: [47, FD, 7C, D8, 16, 8C, 20, 3C, 8D, CA, 71, 68, 91, 6A, 81, 97, 5D, 58, 81, 81, B6, 45, 50, ' +
        'B8, 29, A0, 31, E1, 72, 4E, 64, 30]',
    ),
  );
  // A scalar of r (decode_fr), after its point decoded.
  t.same(
    run('multiexp', [...g1(G1.BASE), ...le32(R)]).aborted,
    invalidInput(`invalid fr: ${rustHex(le32(R))}`),
  );
  t.same(
    run('multiexp', [...le32(P), ...le32(0n), ...le32(R)]).aborted,
    invalidInput(`invalid fq: ${rustHex(le32(P))}`),
    "the point's coordinates come before its scalar",
  );
  // G2: each of the four coordinates is an Fq; a point off the twist is "invalid g2" with all 128 bytes.
  const q = g2(G2.BASE);
  const offTwist = [...le32(1n), ...le32(0n), ...le32(1n), ...le32(0n)];
  t.same(
    run('pairing', [...g1(G1.BASE), ...offTwist]).aborted,
    invalidInput(`invalid g2: ${rustHex(offTwist)}`),
  );
  const badImaginary = [...q.slice(0, 32), ...le32(P), ...q.slice(64)];
  t.same(
    run('pairing', [...g1(G1.BASE), ...badImaginary]).aborted,
    invalidInput(`invalid fq: ${rustHex(le32(P))}`),
  );
  // On the twist but outside the prime-order subgroup: refused as well (bn's AffineG2::new checks the
  // order). x = 2 + i is the first such x with x³ + b' a square.
  const Fp2 = bn254.fields.Fp2;
  const x = Fp2.create({ c0: 2n, c1: 1n });
  const y = Fp2.sqrt(Fp2.add(Fp2.mul(Fp2.sqr(x), x), G2.CURVE().b));
  t.ok(y, 'x³ + b′ has a square root');
  const torsion = [...le32(x.c0), ...le32(x.c1), ...le32(y.c0), ...le32(y.c1)];
  t.notOk(G2.fromAffine({ x, y }).isTorsionFree(), 'the point is not in the subgroup');
  t.same(
    run('pairing', [...g1(G1.BASE), ...torsion]).aborted,
    invalidInput(`invalid g2: ${rustHex(torsion)}`),
  );
  // Elements are decoded in order, G1 before G2: a bad G1 is reported though its G2 is bad too.
  const offCurveG1 = [...le32(1n), ...le32(1n)];
  t.same(
    run('pairing', [...offCurveG1, ...offTwist]).aborted,
    invalidInput(`invalid g1: ${rustHex(offCurveG1)}`),
  );
  t.same(
    run('pairing', [...g1(G1.BASE), ...q, ...offCurveG1, ...q]).aborted,
    invalidInput(`invalid g1: ${rustHex(offCurveG1)}`),
    'the second element, once the first decoded',
  );
});
