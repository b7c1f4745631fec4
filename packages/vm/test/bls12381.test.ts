// The bls12381_* host functions against nearcore's test vectors, with the exact gas of every call.
import { createRequire } from 'node:module';
import { parseVMConfig, runFunction, type VMConfig } from '@nearlite/vm';
import t from 'tap';
import { csv, each, fp, fp2, g1, g2, hex, join, json, scalar } from './bls12381_vectors.js';
import { config, fees, freshHash, MockExternal, makeContext, rawConfig, wat } from './helpers.js';

const fixed = parseVMConfig({ ...rawConfig.wasm_config, bls12381_not_in_group_fix: true });
const ext = rawConfig.wasm_config.ext_costs as Record<string, number>;
const cost = (name: string): bigint => BigInt(ext[name]!);

// Every method copies the call's input into memory at 0, calls one host function on it, and
// returns the gas that call burnt (between two used_gas readings), its status, and register 1
// (its length, u64::MAX when unset, then its bytes).
const OUT = 0x400000;
// 16 bytes before the end of the memory (limit_config.initial_memory_pages of 64 KiB).
const PAST_END = Number(config.limit_config.initial_memory_pages) * 65536 - 16;
const HOST = {
  p1_sum: ['bls12381_p1_sum', 97],
  p2_sum: ['bls12381_p2_sum', 193],
  g1_multiexp: ['bls12381_g1_multiexp', 128],
  g2_multiexp: ['bls12381_g2_multiexp', 224],
  map_fp_to_g1: ['bls12381_map_fp_to_g1', 48],
  map_fp2_to_g2: ['bls12381_map_fp2_to_g2', 96],
  p1_decompress: ['bls12381_p1_decompress', 48],
  p2_decompress: ['bls12381_p2_decompress', 96],
} as const;
type Fn = keyof typeof HOST | 'pairing_check';

const method = (name: string, host: string, args: string): string => `
  (func (export "${name}") (local $len i64)
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 0))
    (local.set $len (call $register_len (i64.const 0)))
    (i64.store (i32.const ${OUT}) (call $used_gas))
    (i64.store (i32.const ${OUT + 8}) (call $${host} ${args}))
    (i64.store (i32.const ${OUT}) (i64.sub (call $used_gas) (i64.load (i32.const ${OUT}))))
    (i64.store (i32.const ${OUT + 16}) (call $register_len (i64.const 1)))
    (if (i64.ne (i64.load (i32.const ${OUT + 16})) (i64.const -1))
      (then (call $read_register (i64.const 1) (i64.const ${OUT + 24}))))
    (call $value_return (i64.add (i64.const 24) (select (i64.const 0) (i64.load (i32.const ${OUT + 16}))
      (i64.eq (i64.load (i32.const ${OUT + 16})) (i64.const -1)))) (i64.const ${OUT})))`;

const imports = [
  '(import "env" "input" (func $input (param i64)))',
  '(import "env" "read_register" (func $read_register (param i64 i64)))',
  '(import "env" "register_len" (func $register_len (param i64) (result i64)))',
  '(import "env" "used_gas" (func $used_gas (result i64)))',
  '(import "env" "value_return" (func $value_return (param i64 i64)))',
  '(import "env" "bls12381_pairing_check" (func $bls12381_pairing_check (param i64 i64) (result i64)))',
  ...Object.values(HOST).map(([h]) => `(import "env" "${h}" (func $${h} (param i64 i64 i64) (result i64)))`),
];
const code = await wat(`(module ${imports.join('\n')} (memory 128)
  ${Object.entries(HOST)
    .map(([name, [h]]) => method(name, h, '(local.get $len) (i64.const 0) (i64.const 1)'))
    .join('\n')}
  ${method('pairing_check', 'bls12381_pairing_check', '(local.get $len) (i64.const 0)')}
  ${Object.entries(HOST)
    .map(([name, [h]]) => method(`${name}_from_register`, h, '(i64.const -1) (i64.const 0) (i64.const 1)'))
    .join('\n')}
  ${method('pairing_check_from_register', 'bls12381_pairing_check', '(i64.const -1) (i64.const 0)')}
  ${method('g2_multiexp_past_memory', 'bls12381_g2_multiexp', `(i64.const 57600) (i64.const ${PAST_END}) (i64.const 1)`)}
  ${method('pairing_check_past_memory', 'bls12381_pairing_check', `(i64.const 57600) (i64.const ${PAST_END})`)})`);
const codeHash = freshHash();

function le64(b: Uint8Array, o: number): bigint {
  return new DataView(b.buffer, b.byteOffset + o, 8).getBigUint64(0, true);
}

interface Result {
  gas: bigint;
  status: bigint;
  out: Uint8Array | null;
}

function run(methodName: string, input: Uint8Array, cfg: VMConfig = config) {
  return runFunction({
    code,
    codeHash,
    methodName,
    context: makeContext({ input }),
    config: cfg,
    fees,
    external: new MockExternal(),
  });
}

function call(fn: Fn, input: Uint8Array, cfg: VMConfig = config): Result {
  const o = run(fn, input, cfg);
  if (o.return_data.kind !== 'Value') {
    throw new Error(
      `${fn} aborted: ${JSON.stringify(o.aborted, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`,
    );
  }
  const d = o.return_data.data;
  return { gas: le64(d, 0), status: le64(d, 8), out: le64(d, 16) === 2n ** 64n - 1n ? null : d.slice(24) };
}

/** nearcore's cost of one call (plus the second used_gas's `base`), from the parameter snapshot. */
function expectedGas(fn: Fn, inputLen: number, outLen: number | null): bigint {
  const prefix = fn === 'pairing_check' ? 'bls12381_pairing' : HOST[fn][0];
  const itemSize = fn === 'pairing_check' ? 288 : HOST[fn][1];
  let g =
    cost('base') +
    cost(`${prefix}_base`) +
    cost(`${prefix}_element`) * BigInt(Math.floor(inputLen / itemSize)) +
    cost('read_memory_base') +
    cost('read_memory_byte') * BigInt(inputLen);
  // finite-wasm ends a charge at every call, so the instructions between the two used_gas calls are
  // charged between them: the first store, the address and the arguments with the host call, the
  // second store, then the address with the second used_gas (the pairing check takes one argument
  // less).
  g += BigInt(fn === 'pairing_check' ? 8 : 9) * config.regular_op_cost;
  if (outLen !== null) g += cost('write_register_base') + cost('write_register_byte') * BigInt(outLen);
  return g;
}

/** Runs `fn` on `input` and checks the status, the output and the gas. */
function check(
  t: Tap.Test,
  fn: Fn,
  input: Uint8Array,
  want: { status: bigint; out?: Uint8Array },
  cfg: VMConfig = config,
  msg = '',
): void {
  const r = call(fn, input, cfg);
  t.equal(r.status, want.status, `${fn} status ${msg}`);
  if (want.out !== undefined) t.same(r.out, want.out, `${fn} output ${msg}`);
  if (want.status !== 0n || fn === 'pairing_check') t.equal(r.out, null, `${fn} leaves the register ${msg}`);
  t.equal(r.gas, expectedGas(fn, input.length, r.out?.length ?? null), `${fn} gas ${msg}`);
}

const curveLoaded = (): boolean =>
  Object.keys(createRequire(import.meta.url).cache).some((k) => k.endsWith('bls12-381.js'));

t.test('the curve library loads on the first bls12381 call, not with the VM', async (t) => {
  t.equal(curveLoaded(), false, 'linking and running contracts does not load it');
  check(t, 'p1_sum', new Uint8Array(0), { status: 0n, out: join([Uint8Array.of(0x40), new Uint8Array(95)]) });
  t.equal(curveLoaded(), true);
});

const P1_SUM_X0 = [7, 10]; // bls12_381_g1_add.json entries adding G1's (0, ±2)

t.test('p1_sum: G1 additions (bls12_381_g1_add.json)', async (t) => {
  for (const [i, v] of json('bls12_381_g1_add.json').entries()) {
    const input = join([
      Uint8Array.of(0),
      g1(v.input.subarray(0, 128)),
      Uint8Array.of(0),
      g1(v.input.subarray(128)),
    ]);
    check(t, 'p1_sum', input, { status: 0n, out: g1(v.output) }, fixed, `#${i} with the fix`);
    // Before NEP-488 (the protocol nearlite reports), (0, ±2) is refused and nothing else changes.
    const before = P1_SUM_X0.includes(i) ? { status: 1n } : { status: 0n, out: g1(v.output) };
    check(t, 'p1_sum', input, before, config, `#${i} without the fix`);
  }
});

t.test('p1_sum: (0, 2) + (0, 2) = (0, −2) and back (g1_add_x0.csv)', async (t) => {
  for (const [i, v] of csv('g1_add_x0.csv').entries()) {
    const input = join([
      Uint8Array.of(0),
      g1(v.input.subarray(0, 128)),
      Uint8Array.of(0),
      g1(v.input.subarray(128)),
    ]);
    check(t, 'p1_sum', input, { status: 0n, out: g1(v.output) }, fixed, `#${i}`);
    check(t, 'p1_sum', input, { status: 1n }, config, `#${i} without the fix`);
  }
});

t.test('p2_sum: G2 additions (bls12_381_g2_add.json)', async (t) => {
  for (const [i, v] of json('bls12_381_g2_add.json').entries()) {
    const input = join([
      Uint8Array.of(0),
      g2(v.input.subarray(0, 256)),
      Uint8Array.of(0),
      g2(v.input.subarray(256)),
    ]);
    check(t, 'p2_sum', input, { status: 0n, out: g2(v.output) }, config, `#${i}`);
  }
});

t.test('map_fp_to_g1 (bls12_381_map_fp_to_g1.json)', async (t) => {
  const all = json('bls12_381_map_fp_to_g1.json');
  for (const [i, v] of all.entries()) {
    check(t, 'map_fp_to_g1', fp(v.input), { status: 0n, out: g1(v.output) }, config, `#${i}`);
  }
  // Several elements map in one call, their points concatenated.
  const input = join(all.map((v) => fp(v.input)));
  check(t, 'map_fp_to_g1', input, { status: 0n, out: join(all.map((v) => g1(v.output))) });
});

t.test('map_fp2_to_g2 (bls12_381_map_fp2_to_g2.json)', async (t) => {
  const all = json('bls12_381_map_fp2_to_g2.json');
  for (const [i, v] of all.entries()) {
    check(t, 'map_fp2_to_g2', fp2(v.input), { status: 0n, out: g2(v.output) }, config, `#${i}`);
  }
  const input = join(all.slice(0, 4).map((v) => fp2(v.input)));
  check(t, 'map_fp2_to_g2', input, { status: 0n, out: join(all.slice(0, 4).map((v) => g2(v.output))) });
});

const pairingInput = (b: Uint8Array): Uint8Array =>
  each(b, 384, (pair) => join([g1(pair.subarray(0, 128)), g2(pair.subarray(128))]));

t.test('pairing_check (pairing.csv): 0 when the product is one, 2 when not', async (t) => {
  for (const [i, v] of csv('pairing.csv').entries()) {
    const one = v.output[v.output.length - 1] === 1;
    check(t, 'pairing_check', pairingInput(v.input), { status: one ? 0n : 2n }, config, `#${i}`);
  }
});

const mulInput =
  (point: (b: Uint8Array) => Uint8Array, size: number) =>
  (b: Uint8Array): Uint8Array =>
    each(b, size + 32, (item) => join([point(item.subarray(0, size)), scalar(item.subarray(size))]));
const g1MulInput = mulInput(g1, 128);
const g2MulInput = mulInput(g2, 256);

t.test('pairing_check (bls12_381_pair.json)', async (t) => {
  for (const [i, v] of json('bls12_381_pair.json').entries()) {
    const one = v.output[v.output.length - 1] === 1;
    check(t, 'pairing_check', pairingInput(v.input), { status: one ? 0n : 2n }, config, `#${i}`);
  }
});

t.test('g1_multiexp: scalar multiplications (g1_mul.csv)', async (t) => {
  const all = csv('g1_mul.csv');
  for (const [i, v] of all.entries()) {
    check(t, 'g1_multiexp', g1MulInput(v.input), { status: 0n, out: g1(v.output) }, config, `#${i}`);
  }
});

t.test('g1_multiexp: 16 points at once (g1_multiexp.csv)', async (t) => {
  for (const [i, v] of csv('g1_multiexp.csv').entries()) {
    check(t, 'g1_multiexp', g1MulInput(v.input), { status: 0n, out: g1(v.output) }, config, `#${i}`);
  }
});

t.test('g2_multiexp: scalar multiplications (g2_mul.csv)', async (t) => {
  for (const [i, v] of csv('g2_mul.csv').entries()) {
    check(t, 'g2_multiexp', g2MulInput(v.input), { status: 0n, out: g2(v.output) }, config, `#${i}`);
  }
});

t.test('g1_multiexp refuses points off the curve (multiexp_g1_error.csv)', async (t) => {
  for (const [i, v] of csv('multiexp_g1_error.csv').entries()) {
    check(t, 'g1_multiexp', g1MulInput(v.input), { status: 1n }, config, `#${i}`);
  }
});

t.test('g2_multiexp refuses points off the curve (multiexp_g2_error.csv)', async (t) => {
  for (const [i, v] of csv('multiexp_g2_error.csv').entries()) {
    check(t, 'g2_multiexp', g2MulInput(v.input), { status: 1n }, config, `#${i}`);
  }
});

t.test('pairing_check refuses points outside G1 or G2 (pairing_error.csv)', async (t) => {
  for (const [i, v] of csv('pairing_error.csv').entries()) {
    check(t, 'pairing_check', pairingInput(v.input), { status: 1n }, config, `#${i}`);
  }
});

t.test('map_fp_to_g1 refuses elements ≥ p (fp_to_g1_error.csv)', async (t) => {
  let checked = 0;
  for (const [i, v] of csv('fp_to_g1_error.csv').entries()) {
    // Like nearcore's test: a non-zero EIP-2537 padding has no counterpart in 48-byte elements.
    if (v.input.subarray(0, 16).some((b) => b !== 0)) continue;
    check(t, 'map_fp_to_g1', fp(v.input), { status: 1n }, config, `#${i}`);
    checked++;
  }
  t.equal(checked, 2);
});

// ── Decompression: nearcore's vector points, compressed the ZCash way ─────────────────────────

// BLS12-381's p, as nearcore's tests spell it.
const P = BigInt(
  '0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab',
);
const HALF = (P - 1n) / 2n;
const big = (b: Uint8Array): bigint => BigInt(`0x${Buffer.from(b).toString('hex') || '0'}`);
const be48 = (v: bigint): Uint8Array => hex(v.toString(16).padStart(96, '0'));
const negLimb = (b: Uint8Array): Uint8Array => be48(big(b) === 0n ? 0n : P - big(b));

/** x with the flags: 0x80, and 0x20 when y is the larger root (c1 first, then c0, for Fp2). */
function compress(point: Uint8Array): Uint8Array {
  const half = point.length / 2;
  if ((point[0]! & 0x40) !== 0) return join([Uint8Array.of(0xc0), new Uint8Array(half - 1)]);
  const x = point.slice(0, half);
  const y = point.subarray(half);
  const c1 = big(y.subarray(0, 48));
  const larger = half === 48 || c1 !== 0n ? c1 > HALF : big(y.subarray(48)) > HALF;
  x[0] = x[0]! | (0x80 | (larger ? 0x20 : 0));
  return x;
}

function negate(point: Uint8Array): Uint8Array {
  const half = point.length / 2;
  return join([point.subarray(0, half), each(point.subarray(half), 48, negLimb)]);
}

const G1_POINTS = [
  ...json('bls12_381_g1_add.json').map((v) => g1(v.output)),
  ...csv('g1_mul.csv').map((v) => g1(v.output)),
  // On the curve but outside G1 (the first operand of bls12_381_g1_add.json #8).
  g1(json('bls12_381_g1_add.json')[8]!.input.subarray(0, 128)),
].filter((p) => p[0] !== 0x40 && big(p.subarray(0, 48)) !== 0n);
const G2_POINTS = [
  ...json('bls12_381_g2_add.json').map((v) => g2(v.output)),
  ...csv('g2_mul.csv').map((v) => g2(v.output)),
].filter((p) => p[0] !== 0x40);
// Results of the multiplication vectors: nearcore's multiexp accepted their inputs, so they lie
// in G1 and G2 (the addition vectors also add points outside the subgroups).
const G1_SUB = csv('g1_mul.csv').map((v) => g1(v.output));
const G2_SUB = csv('g2_mul.csv').map((v) => g2(v.output));
const G1_INF = join([Uint8Array.of(0x40), new Uint8Array(95)]);
const G2_INF = join([Uint8Array.of(0x40), new Uint8Array(191)]);

t.test('p1_decompress restores every vector point, its negation and infinity', async (t) => {
  t.ok(G1_POINTS.length >= 8);
  const points = [...G1_POINTS, ...G1_POINTS.map(negate), G1_INF];
  check(t, 'p1_decompress', join(points.map(compress)), { status: 0n, out: join(points) });
  for (const [i, p] of G1_POINTS.entries()) {
    const flipped = compress(p);
    flipped[0] = flipped[0]! ^ 0x20;
    check(t, 'p1_decompress', flipped, { status: 0n, out: negate(p) }, config, `sign flag #${i}`);
  }
  check(t, 'p1_decompress', new Uint8Array(0), { status: 0n, out: new Uint8Array(0) }, config, 'empty');
});

t.test('p2_decompress restores every vector point, its negation and infinity', async (t) => {
  t.ok(G2_POINTS.length >= 6);
  const points = [...G2_POINTS, ...G2_POINTS.map(negate), G2_INF];
  check(t, 'p2_decompress', join(points.map(compress)), { status: 0n, out: join(points) });
  check(t, 'p2_decompress', new Uint8Array(0), { status: 0n, out: new Uint8Array(0) }, config, 'empty');
});

function modPow(b: bigint, e: bigint): bigint {
  let r = 1n;
  for (b %= P; e > 0n; e >>= 1n, b = (b * b) % P) if (e & 1n) r = (r * b) % P;
  return r;
}
/** The smallest x ≥ 1 with no point on E: x³ + 4 is not a square mod p. */
const X_OFF_CURVE = (() => {
  for (let x = 1n; ; x++) if (modPow(x ** 3n + 4n, HALF) === P - 1n) return x;
})();

t.test('p1_decompress returns 1 for malformed encodings', async (t) => {
  const good = compress(G1_POINTS[0]!);
  const cases: [string, Uint8Array][] = [
    ['no compression flag', join([Uint8Array.of(good[0]! & 0x7f), good.subarray(1)])],
    ['infinity flag with x bits set', join([Uint8Array.of(0xc0), new Uint8Array(46), Uint8Array.of(1)])],
    ['infinity flag with the sign flag', join([Uint8Array.of(0xe0), new Uint8Array(47)])],
    [
      'x = p',
      (() => {
        const x = be48(P);
        x[0] = x[0]! | 0x80;
        return x;
      })(),
    ],
    [
      'x off the curve',
      (() => {
        const x = be48(X_OFF_CURVE);
        x[0] = x[0]! | 0x80;
        return x;
      })(),
    ],
  ];
  for (const [name, bad] of cases) {
    check(t, 'p1_decompress', bad, { status: 1n }, config, name);
    check(t, 'p1_decompress', join([good, bad]), { status: 1n }, config, `${name}, after a good one`);
  }
  const g2bad = compress(G2_POINTS[0]!);
  g2bad[0] = g2bad[0]! & 0x7f;
  check(t, 'p2_decompress', g2bad, { status: 1n }, config, 'G2 without compression flag');
  // x = k (c1 = 0): x³ + 4(1 + u) is a square in Fp2 exactly when its norm (k³ + 4)² + 16 is in Fp.
  let k = 1n;
  while (modPow((k ** 3n + 4n) ** 2n + 16n, HALF) !== P - 1n) k++;
  const g2off = join([Uint8Array.of(0x80), new Uint8Array(47), be48(k)]);
  check(t, 'p2_decompress', g2off, { status: 1n }, config, 'G2 x off the curve');
  const g2big = join([be48(P), new Uint8Array(48)]);
  g2big[0] = g2big[0]! | 0x80;
  check(t, 'p2_decompress', g2big, { status: 1n }, config, 'G2 x.c1 = p');
});

t.test('p1_decompress of (0, ±2) depends on NEP-488', async (t) => {
  const plus = join([Uint8Array.of(0x80), new Uint8Array(47)]);
  const minus = join([Uint8Array.of(0xa0), new Uint8Array(47)]);
  check(t, 'p1_decompress', plus, { status: 1n }, config, '(0, 2) without the fix');
  check(t, 'p1_decompress', minus, { status: 1n }, config, '(0, −2) without the fix');
  const x0 = csv('g1_add_x0.csv')[0]!;
  const two = g1(x0.input.subarray(0, 128));
  check(t, 'p1_decompress', join([plus, minus]), { status: 0n, out: join([two, g1(x0.output)]) }, fixed);
});

// ── Sums and multiexp: malformed points, signs and subgroup checks ────────────────────────────

t.test('p1_sum and p2_sum return 1 for malformed signs and points', async (t) => {
  const p = G1_POINTS[0]!;
  const edited = (f: (b: Uint8Array) => void): Uint8Array => {
    const b = p.slice();
    f(b);
    return b;
  };
  const cases: [string, Uint8Array][] = [
    ['sign 2', join([Uint8Array.of(2), p])],
    [
      'compression flag',
      join([
        Uint8Array.of(0),
        edited((b) => {
          b[0] = b[0]! | 0x80;
        }),
      ]),
    ],
    [
      'sign flag without compression',
      join([
        Uint8Array.of(0),
        edited((b) => {
          b[0] = b[0]! | 0x20;
        }),
      ]),
    ],
    ['infinity flag with a set bit', join([Uint8Array.of(0), G1_INF.slice(0, 95), Uint8Array.of(1)])],
    ['infinity flag with both flags', join([Uint8Array.of(0), Uint8Array.of(0xc0), new Uint8Array(95)])],
    ['all zeros (not the infinity encoding)', new Uint8Array(97)],
    [
      'y off the curve',
      join([
        Uint8Array.of(0),
        edited((b) => {
          b[95] = b[95]! ^ 1;
        }),
      ]),
    ],
    ['y + p', join([Uint8Array.of(0), p.subarray(0, 48), be48(big(p.subarray(48)) + P)])],
  ];
  for (const [name, bad] of cases) {
    check(t, 'p1_sum', bad, { status: 1n }, config, name);
    check(t, 'p1_sum', join([Uint8Array.of(0), p, bad]), { status: 1n }, fixed, `${name}, after a good one`);
  }
  const q = G2_POINTS[0]!;
  check(t, 'p2_sum', join([Uint8Array.of(2), q]), { status: 1n }, config, 'G2 sign 2');
  const off = q.slice();
  off[191] = off[191]! ^ 1;
  check(t, 'p2_sum', join([Uint8Array.of(0), off]), { status: 1n }, config, 'G2 off the curve');
  check(t, 'p1_sum', new Uint8Array(0), { status: 0n, out: G1_INF }, config, 'empty sum');
  check(t, 'p2_sum', new Uint8Array(0), { status: 0n, out: G2_INF }, config, 'empty sum');
  check(
    t,
    'p1_sum',
    join([Uint8Array.of(1), p, Uint8Array.of(0), p]),
    { status: 0n, out: G1_INF },
    config,
    '−P + P',
  );
  check(t, 'p1_sum', join([Uint8Array.of(1), p]), { status: 0n, out: negate(p) }, config, '−P');
});

const le32 = (v: bigint): Uint8Array => hex(v.toString(16).padStart(64, '0')).reverse();
const R = BigInt('0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001');

t.test('g1_multiexp and g2_multiexp: subgroup checks and scalar arithmetic', async (t) => {
  const outside = g1(json('bls12_381_g1_add.json')[8]!.input.subarray(0, 128));
  for (const cfg of [config, fixed]) {
    check(t, 'g1_multiexp', join([outside, le32(1n)]), { status: 1n }, cfg, 'point outside G1');
  }
  const two = g1(csv('g1_add_x0.csv')[0]!.input.subarray(0, 128));
  check(t, 'g1_multiexp', join([two, le32(1n)]), { status: 1n }, fixed, '(0, 2) with the fix');
  const v = csv('g1_mul.csv')[0]!;
  const [point, s] = [g1(v.input.subarray(0, 128)), big(v.input.subarray(128))];
  const out = g1(v.output);
  // The vector's 256-bit scalar is past r; its residue and the residue plus r multiply the same.
  check(t, 'g1_multiexp', join([point, le32(s % R)]), { status: 0n, out }, config, '(s mod r)·P = s·P');
  check(t, 'g1_multiexp', join([point, le32((s % R) + R)]), { status: 0n, out }, config, '(s mod r + r)·P');
  check(t, 'g1_multiexp', join([point, le32(R)]), { status: 0n, out: G1_INF }, config, 'r·P = O');
  check(t, 'g1_multiexp', join([point, le32(0n)]), { status: 0n, out: G1_INF }, config, '0·P = O');
  check(t, 'g1_multiexp', join([point, le32(1n)]), { status: 0n, out: point }, config, '1·P = P');
  check(t, 'g1_multiexp', join([G1_INF, le32(s)]), { status: 0n, out: G1_INF }, config, 's·O = O');
  check(t, 'g1_multiexp', new Uint8Array(0), { status: 0n, out: G1_INF }, config, 'empty');
  // Σ sᵢ·Pᵢ over g1_mul.csv equals the sum of its results.
  const all = csv('g1_mul.csv');
  const sum = call('p1_sum', join(all.map((x) => join([Uint8Array.of(0), g1(x.output)]))));
  check(
    t,
    'g1_multiexp',
    join(all.map((x) => g1MulInput(x.input))),
    { status: 0n, out: sum.out! },
    config,
    'Σ',
  );

  const w = csv('g2_mul.csv')[0]!;
  const q = g2(w.input.subarray(0, 256));
  check(t, 'g2_multiexp', join([q, le32(R)]), { status: 0n, out: G2_INF }, config, 'r·Q = O');
  check(t, 'g2_multiexp', join([q, le32((big(w.input.subarray(256)) % R) + R)]), {
    status: 0n,
    out: g2(w.output),
  });
  check(t, 'g2_multiexp', new Uint8Array(0), { status: 0n, out: G2_INF }, config, 'empty');
});

t.test('pairing_check: empty input, infinity, and points it refuses', async (t) => {
  check(t, 'pairing_check', new Uint8Array(0), { status: 0n }, config, 'empty product');
  const [p, q] = [G1_SUB[0]!, G2_SUB[0]!];
  check(t, 'pairing_check', join([G1_INF, q, p, G2_INF]), { status: 0n }, config, 'e(O, Q)·e(P, O)');
  check(t, 'pairing_check', join([p, q]), { status: 2n }, config, 'e(P, Q)');
  check(t, 'pairing_check', join([p, q, negate(p), q]), { status: 0n }, config, 'e(P, Q)·e(−P, Q)');
  const two = g1(csv('g1_add_x0.csv')[0]!.input.subarray(0, 128));
  for (const cfg of [config, fixed]) check(t, 'pairing_check', join([two, q]), { status: 1n }, cfg, '(0, 2)');
  const flagged = p.slice();
  flagged[0] = flagged[0]! | 0x80;
  check(t, 'pairing_check', join([flagged, q]), { status: 1n }, config, 'compression flag');
  check(t, 'pairing_check', join([new Uint8Array(96), q]), { status: 1n }, config, 'all-zero G1');
});

// ── Host errors ──────────────────────────────────────────────────────────────────────────────

const NAMES: Record<Fn, [string, number]> = {
  p1_sum: ['bls12381_p1_sum', 97],
  p2_sum: ['bls12381_p2_sum', 193],
  g1_multiexp: ['bls12381_p1_multiexp', 128],
  g2_multiexp: ['bls12381_p2_multiexp', 224],
  map_fp_to_g1: ['bls12381_map_fp_to_g1', 48],
  map_fp2_to_g2: ['bls12381_map_fp2_to_g2', 96],
  p1_decompress: ['bls12381_p1_decompress', 48],
  p2_decompress: ['bls12381_p2_decompress', 96],
  pairing_check: ['bls12381_pairing_check', 288],
};

t.test('an input that is not a whole number of items is BLS12381InvalidInput', async (t) => {
  for (const [fn, [name, size]] of Object.entries(NAMES) as [Fn, [string, number]][]) {
    for (const len of [1, size + 1, 2 * size - 1]) {
      const o = run(fn, new Uint8Array(len));
      const msg = `Incorrect input length for ${name}: ${len} is not divisible by ${size}`;
      t.same(o.aborted, { HostError: { BLS12381InvalidInput: { msg } } }, msg);
      t.equal(o.return_data.kind, 'None');
    }
  }
});

t.test('input from a register overflows the element cost, except for the pairing check', async (t) => {
  for (const fn of Object.keys(HOST) as (keyof typeof HOST)[]) {
    const o = run(`${fn}_from_register`, new Uint8Array(0));
    t.same(o.aborted, { HostError: 'IntegerOverflow' }, fn);
  }
  // The pairing check counts elements from the bytes it read, so a register works.
  const [p, q] = [G1_SUB[0]!, G2_SUB[0]!];
  const input = join([p, q, negate(p), q]);
  const o = run('pairing_check_from_register', input);
  t.equal(o.aborted, null);
  const d = o.return_data.kind === 'Value' ? o.return_data.data : new Uint8Array(24);
  t.equal(le64(d, 8), 0n);
  t.equal(
    le64(d, 0),
    cost('base') +
      cost('bls12381_pairing_base') +
      2n * cost('bls12381_pairing_element') +
      cost('read_register_base') +
      cost('read_register_byte') * BigInt(input.length) +
      // The instructions between the two used_gas calls, as expectedGas counts them.
      8n * config.regular_op_cost,
  );
});

t.test('the element cost comes before the read, except in the pairing check', async (t) => {
  // 57,600 bytes are 257 G2 multiexp elements, 513 Tgas: nearcore stops at that cost, before it
  // would find the bytes lie past the memory. The pairing check reads first and hits the bound.
  const multiexp = run('g2_multiexp_past_memory', new Uint8Array(0));
  t.same(multiexp.aborted, { HostError: 'GasExceeded' }, 'the prepaid gas runs out first');
  const pairing = run('pairing_check_past_memory', new Uint8Array(0));
  t.same(pairing.aborted, { HostError: 'MemoryAccessViolation' });
});

t.test('map_fp_to_g1 and map_fp2_to_g2 take only elements below p', async (t) => {
  check(t, 'map_fp_to_g1', be48(P), { status: 1n }, config, 'p');
  check(t, 'map_fp_to_g1', be48(P - 1n), { status: 0n }, config, 'p − 1');
  const one = be48(1n);
  check(t, 'map_fp2_to_g2', join([be48(P), one]), { status: 1n }, config, 'c1 = p');
  check(t, 'map_fp2_to_g2', join([one, be48(P)]), { status: 1n }, config, 'c0 = p');
  check(t, 'map_fp2_to_g2', join([be48(P - 1n), be48(P - 1n)]), { status: 0n }, config, 'p − 1 twice');
  const good = fp(json('bls12_381_map_fp_to_g1.json')[1]!.input);
  check(t, 'map_fp_to_g1', join([good, be48(P)]), { status: 1n }, config, 'a bad element after a good one');
  check(t, 'map_fp_to_g1', new Uint8Array(0), { status: 0n, out: new Uint8Array(0) }, config, 'empty');
  check(t, 'map_fp2_to_g2', new Uint8Array(0), { status: 0n, out: new Uint8Array(0) }, config, 'empty');
});
