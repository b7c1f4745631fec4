#!/usr/bin/env node
// Runs every test file with tap and ends with a plain `N passed, N failed` line, so a CI log shows the
// count at a glance. Extra arguments narrow the run (e.g. `npm test -- packages/trie`).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function collect(dir, out) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'fixtures' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) collect(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const args = process.argv.slice(2);
const roots = args.length > 0 ? args : ['packages', 'test'];
const files = roots.flatMap((r) => (r.endsWith('.ts') ? [r] : collect(r, []))).sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

const child = spawn(
  process.execPath,
  [join('node_modules', 'tap', 'dist', 'esm', 'run.mjs'), '--reporter=tap', ...files],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
let tap = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  tap += chunk.toString();
});
/**
 * Counts tests, not files or assertions: a test is a subtest with no subtests of its own. TAP puts a
 * subtest's `# Subtest:` header and its result line at the same indent, its assertions deeper.
 */
function countTests(tap) {
  const stack = [];
  let pass = 0;
  let fail = 0;
  let skip = 0;
  for (const line of tap.split('\n')) {
    const header = /^(\s*)# Subtest: /.exec(line);
    if (header) {
      const top = stack[stack.length - 1];
      if (top) top.hasChild = true;
      stack.push({ indent: header[1].length, hasChild: false });
      continue;
    }
    const result = /^(\s*)(not )?ok \d+ /.exec(line);
    const top = stack[stack.length - 1];
    if (!result || !top || result[1].length !== top.indent) continue;
    stack.pop();
    if (top.hasChild) continue;
    if (/# (SKIP|TODO)/i.test(line)) skip++;
    else if (result[2]) fail++;
    else pass++;
  }
  return { pass, fail, skip };
}

child.on('close', (code) => {
  let { pass, fail, skip } = countTests(tap);
  if (code !== 0 && fail === 0) fail = 1;
  console.log(`${pass} passed, ${fail} failed${skip > 0 ? `, ${skip} skipped` : ''}`);
  process.exit(code ?? 1);
});
