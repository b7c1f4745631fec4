// The CLI's heap policy (bin/heap_policy.js): set unless the user chose their own, and set in V8
// itself, where a code cache made under other flags is refused.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';

const BIN = join(import.meta.dirname, '..', 'bin');
const { heapPolicyFlag, HEAP_GROWING_PERCENT } = (await import(
  pathToFileURL(join(BIN, 'heap_policy.js')).href
)) as {
  heapPolicyFlag: (execArgv: readonly string[]) => string | null;
  HEAP_GROWING_PERCENT: number;
};

t.test('the flag is set unless the user chose one', async (t) => {
  const flag = `--heap-growing-percent=${HEAP_GROWING_PERCENT}`;
  t.equal(heapPolicyFlag([]), flag);
  t.equal(heapPolicyFlag(['--max-old-space-size=4096', '--enable-source-maps']), flag, 'other flags');
  t.equal(heapPolicyFlag(['--heap-growing-percent=30']), null, 'on the command line');
  t.equal(heapPolicyFlag(['--heap_growing_percent=300']), null, 'spelled with underscores');
  t.equal(heapPolicyFlag(['--heap-growing-percentage']), flag, 'a longer name is not the flag');
});

t.test("the policy reaches V8's flags, before the bundle is loaded", async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'cli.cjs');
  const fns = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join('\n');
  writeFileSync(file, `${fns}\nexports.answer = () => f7(1);\n`);
  const url = (name: string) => JSON.stringify(pathToFileURL(join(BIN, name)).href);
  const load = (policy: boolean): boolean => {
    const driver = `
      import { applyHeapPolicy } from ${url('heap_policy.js')};
      import { loadBundle } from ${url('load_bundle.js')};
      ${policy ? 'applyHeapPolicy();' : ''}
      const { cacheUsed } = loadBundle(${JSON.stringify(file)}, { cacheAfterMs: 50 });
      process.stdout.write(JSON.stringify(cacheUsed));
      setTimeout(() => {}, 350);
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', driver], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return JSON.parse(r.stdout) as boolean;
  };
  t.equal(load(true), false, 'first start: compiled, and cached under the policy');
  t.equal(load(true), true, 'a start under the same policy runs from the cache');
  t.equal(load(false), false, "V8's flags differ without it: the cache is refused");
});
