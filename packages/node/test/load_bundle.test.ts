// The bundled CLI's loader: a start leaves its compiled code for the next one, the next start uses
// it, and a cache that does not belong to the bundle as it is now is never applied. Each load runs in
// a fresh Node process, as a start does.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';

const LOADER = pathToFileURL(join(import.meta.dirname, '..', 'bin', 'load_bundle.js')).href;

/**
 * Loads `file` in a new process, which prints what its exports answer and whether a cache was used,
 * and stays long enough for a cache to be written when one is due, unless `exitAtOnce`.
 */
function runLoader(file: string, cacheAfterMs: number, exitAtOnce = false) {
  const driver = `
    import { loadBundle } from ${JSON.stringify(LOADER)};
    const { exports, cacheUsed } = loadBundle(${JSON.stringify(file)}, { cacheAfterMs: ${cacheAfterMs} });
    process.stdout.write(JSON.stringify({ answer: exports.answer(), cacheUsed }));
    ${exitAtOnce ? '' : `setTimeout(() => {}, ${cacheAfterMs} + 300);`}
  `;
  return spawnSync(process.execPath, ['--input-type=module', '-e', driver], { encoding: 'utf8' });
}

function load(file: string, cacheAfterMs: number): { answer: string; cacheUsed: boolean } {
  const r = runLoader(file, cacheAfterMs);
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

/** A bundle-like script tagged `tag`, alone in a new directory. */
function bundleIn(t: Parameters<typeof tempDir>[0], tag: string): { dir: string; file: string } {
  const dir = tempDir(t);
  const file = join(dir, 'cli.cjs');
  writeFileSync(file, script(tag));
  return { dir, file };
}

/** A bundle-like script: CommonJS, with enough functions for V8 to have something to cache. */
function script(tag: string): string {
  const fns = Array.from({ length: 200 }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join('\n');
  return `${fns}\nconst path = require('node:path');\nexports.answer = () => '${tag}:' + path.basename(__filename) + ':' + f7(1);\n`;
}

const cacheFiles = (dir: string) =>
  existsSync(join(dir, '.cache')) ? readdirSync(join(dir, '.cache')).filter((f) => f.endsWith('.bin')) : [];

t.test('a start leaves its code for the next, which uses it', async (t) => {
  const { dir, file } = bundleIn(t, 'one');
  const first = load(file, 50);
  t.same(first, { answer: 'one:cli.cjs:8', cacheUsed: false }, 'no cache yet: compiled from source');
  t.equal(cacheFiles(dir).length, 1, 'the cache was written beside the bundle');
  const second = load(file, 50);
  t.same(second, { answer: 'one:cli.cjs:8', cacheUsed: true }, 'the next start runs from the cache');
  t.equal(cacheFiles(dir).length, 1, 'a start that used the cache writes none');
});

t.test('a rebuilt bundle of the same length never runs the old code', async (t) => {
  const { file } = bundleIn(t, 'old');
  load(file, 50);
  t.equal(load(file, 50).cacheUsed, true);
  // Same length, other code: V8 alone would take the old cache for it (it checks the length).
  writeFileSync(file, script('new'));
  const later = new Date(Date.now() + 5_000);
  utimesSync(file, later, later);
  t.same(load(file, 50), { answer: 'new:cli.cjs:8', cacheUsed: false }, 'the new code, compiled afresh');
  t.equal(load(file, 50).cacheUsed, true, 'and cached for the start after');
});

t.test('a damaged cache is refused and replaced', async (t) => {
  const { dir, file } = bundleIn(t, 'x');
  load(file, 50);
  const [name] = cacheFiles(dir);
  writeFileSync(join(dir, '.cache', name!), Buffer.alloc(4096, 7));
  t.same(load(file, 50), { answer: 'x:cli.cjs:8', cacheUsed: false }, 'V8 refused the bytes; the source ran');
  t.equal(load(file, 50).cacheUsed, true, 'the damaged cache was rewritten');
});

t.test('a process that ends early leaves no cache', async (t) => {
  const { dir, file } = bundleIn(t, 'short');
  const r = runLoader(file, 60_000, true);
  t.equal(r.status, 0, 'the pending write does not keep the process alive');
  t.same(cacheFiles(dir), []);
});
