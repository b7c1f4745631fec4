// Every call starts from what instantiation makes, whatever calls of the same module (kept
// instance) or of others (pooled memories) did before: seeded modules write memory every way a
// contract can (stores, memory.fill/copy/init, data.drop, host writes through registers, grown
// pages, mutable globals, traps part way), and a reader method hashes what the writers touched.
// What the reader must see is computed here from the module's text alone: zeroed memory with the
// active data segments in order, the globals' initial values, the initial page count.
import { createHash } from 'node:crypto';
import t from 'tap';
import { rng } from '../../../test/helpers/rng.js';
import { ALL_IMPORTS, call, config, freshHash, MockExternal, returned, wat } from './helpers.js';

const PAGE = 65536;
const INIT = config.limit_config.initial_memory_pages * PAGE;
// The reader writes its hashes here, above everything it checks.
const OUT = INIT - 8192;

interface Module {
  readonly code: Uint8Array;
  readonly codeHash: Uint8Array;
  readonly writers: number;
  readonly expected: Buffer;
}

const hexBytes = (b: readonly number[]) => b.map((x) => `\\${x.toString(16).padStart(2, '0')}`).join('');

function generate(next: () => number): Promise<Module> | null {
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(a: readonly T[]): T => a[int(a.length)]!;
  const addr = () =>
    pick([
      int(64),
      int(4096),
      int(4096),
      1 << 20,
      int(1 << 20),
      INIT - 16 + int(24),
      INIT + int(3 * PAGE),
      int(INIT),
    ]);
  const segs = Array.from({ length: int(4) }, () => ({
    at: pick([int(256), int(70_000), (1 << 20) + int(100)]),
    bytes: Array.from({ length: 1 + int(40) }, () => int(256)),
    passive: next() < 0.25,
  }));
  const globs = Array.from({ length: int(4) }, () => ({ type: pick(['i32', 'i64']), init: int(1000) }));
  const touched: [number, number][] = [];
  const store = (a: number): string => {
    const [op, width] = pick([
      ['i32.store8', 1],
      ['i32.store16', 2],
      ['i32.store', 4],
      ['i64.store', 8],
      ['i64.store32', 4],
    ] as const);
    touched.push([a, width]);
    return `(${op} (i32.const ${a}) (${op.slice(0, 3)}.const ${1 + int(250)}))`;
  };
  const body = (): string => {
    const ops: string[] = [];
    if (next() < 0.4) ops.push('(drop (memory.grow (i32.const 1024)))');
    for (let k = 1 + int(12); k > 0; k--) {
      const a = addr();
      const kind = int(10);
      if (kind < 3) ops.push(store(a));
      else if (kind === 3) {
        const len = pick([1, 100, 5000, 70_000]);
        ops.push(`(memory.fill (i32.const ${a}) (i32.const ${1 + int(255)}) (i32.const ${len}))`);
        touched.push([a, Math.min(len, 64)], [a + len - 8, 8]);
      } else if (kind === 4) {
        const len = pick([1, 100, 5000]);
        ops.push(
          `(memory.copy (i32.const ${a}) (i32.const ${pick([0, ...segs.map((s) => s.at)])}) (i32.const ${len}))`,
        );
        touched.push([a, Math.min(len, 64)]);
      } else if (kind === 5) ops.push(`(drop (memory.grow (i32.const ${pick([0, 1, 3, 1024, 1025])})))`);
      else if (kind === 6 && globs.length > 0) {
        const g = int(globs.length);
        ops.push(`(global.set $g${g} (${globs[g]!.type}.const ${1000 + int(1e6)}))`);
      } else if (kind === 7) {
        const len = pick([1, 33, 3000]);
        ops.push(
          `(call $write_register (i64.const 5) (i64.const ${len}) (i64.const ${pick([0, ...segs.map((s) => s.at)])}))`,
          `(call $read_register (i64.const 5) (i64.const ${a}))`,
        );
        touched.push([a, Math.min(len, 64)]);
      } else if (kind === 8 && segs.length > 0) {
        const s = int(segs.length);
        if (segs[s]!.passive) {
          ops.push(
            pick([
              `(memory.init ${s} (i32.const ${a}) (i32.const 0) (i32.const ${segs[s]!.bytes.length}))`,
              `(data.drop ${s})`,
            ]),
          );
          touched.push([a, 8]);
        }
      } else {
        ops.push(`(i32.store (i32.const ${a}) (i32.load (i32.const ${addr()})))`);
        touched.push([a, 4]);
      }
    }
    if (next() < 0.15) ops.push('(unreachable)');
    return ops.join('\n');
  };
  const writers = Array.from({ length: 1 + int(3) }, (_, i) => `(func (export "w${i}") ${body()})`);
  // An active segment past the initial pages fails instantiation: not what this test is about.
  if (segs.some((s) => !s.passive && s.at + s.bytes.length > INIT)) return null;
  for (const s of segs) touched.push([s.at, s.bytes.length]);
  for (let i = 0; i < 4; i++) touched.push([int(2048), 32]);
  const checked = touched
    .filter(([a, l]) => a >= 0 && l > 0 && a + l <= 2 * INIT && (a + l <= OUT || a >= INIT))
    .slice(0, 60);
  const tail = OUT + 32 * checked.length;
  const reader = [
    // Grown pages are read too: the reader grows the memory first.
    '(drop (memory.grow (i32.const 1024)))',
    ...checked.map(
      ([a, l], i) =>
        `(call $sha256 (i64.const ${l}) (i64.const ${a}) (i64.const 0)) (call $read_register (i64.const 0) (i64.const ${OUT + 32 * i}))`,
    ),
    `(i32.store (i32.const ${tail}) (memory.size))`,
    ...globs.map((g, i) => `(${g.type}.store (i32.const ${tail + 4 + 8 * i}) (global.get $g${i}))`),
    `(call $value_return (i64.const ${32 * checked.length + 4 + 8 * globs.length}) (i64.const ${OUT}))`,
  ];
  const source = `(module ${ALL_IMPORTS} (memory 1)
    ${globs.map((g, i) => `(global $g${i} ${next() < 0.3 ? `(export "g${i}")` : ''} (mut ${g.type}) (${g.type}.const ${g.init}))`).join('\n')}
    ${segs.map((s) => (s.passive ? `(data "${hexBytes(s.bytes)}")` : `(data (i32.const ${s.at}) "${hexBytes(s.bytes)}")`)).join('\n')}
    ${writers.join('\n')}
    (func (export "r") ${reader.join('\n')}))`;

  const memory = new Map<number, number>();
  for (const s of segs) {
    if (s.passive) continue;
    for (let j = 0; j < s.bytes.length; j++) memory.set(s.at + j, s.bytes[j]!);
  }
  const expected = Buffer.alloc(32 * checked.length + 4 + 8 * globs.length);
  checked.forEach(([a, l], i) => {
    const bytes = Buffer.alloc(l);
    for (let j = 0; j < l; j++) bytes[j] = memory.get(a + j) ?? 0;
    createHash('sha256')
      .update(bytes)
      .digest()
      .copy(expected, 32 * i);
  });
  const at = 32 * checked.length;
  expected.writeUInt32LE(2 * (INIT / PAGE), at);
  globs.forEach((g, i) => {
    if (g.type === 'i32') expected.writeUInt32LE(g.init, at + 4 + 8 * i);
    else expected.writeBigUInt64LE(BigInt(g.init), at + 4 + 8 * i);
  });
  return wat(source).then((code) => ({ code, codeHash: freshHash(), writers: writers.length, expected }));
}

t.test('a call never sees what an earlier call of any module left behind', async (t) => {
  const next = rng(0x5eed_0001);
  const modules: Module[] = [];
  while (modules.length < 40) {
    const m = generate(next);
    if (m) modules.push(await m);
  }
  const pick = <T>(a: readonly T[]): T => a[Math.floor(next() * a.length)]!;
  let reads = 0;
  let writes = 0;
  const writerOutcomes = new Map<string, string>();
  for (let step = 0; step < 600; step++) {
    const m = pick(modules);
    const method = next() < 0.5 ? 'r' : `w${Math.floor(next() * m.writers)}`;
    const o = call({ code: m.code, codeHash: m.codeHash, method, external: new MockExternal() });
    const i = modules.indexOf(m);
    if (method === 'r') {
      reads++;
      if (!Buffer.from(returned(o)).equals(m.expected))
        t.fail(`module ${i} step ${step}: the reader saw memory or globals another call left`);
      continue;
    }
    writes++;
    // A writer's outcome is the same every time it runs.
    const seen = JSON.stringify({ aborted: o.aborted, gas: o.burnt_gas, ret: o.return_data.kind }, (_k, v) =>
      typeof v === 'bigint' ? String(v) : v,
    );
    const key = `${i}/${method}`;
    const before = writerOutcomes.get(key);
    if (before === undefined) writerOutcomes.set(key, seen);
    else if (before !== seen) t.fail(`module ${i} ${method} step ${step}: ${seen} after ${before}`);
  }
  t.ok(reads > 200 && writes > 200, `${reads} reads and ${writes} writes`);
});
