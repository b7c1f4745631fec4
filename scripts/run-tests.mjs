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
let tail = '';
let passed = 0;
let failed = 0;
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  tail = (tail + chunk.toString()).slice(-1_000_000);
});
child.on('close', (code) => {
  for (const line of tail.split('\n')) {
    // top-level results only: one per test file
    if (/^ok \d+ /.test(line)) passed++;
    else if (/^not ok \d+ /.test(line)) failed++;
  }
  if (code !== 0 && failed === 0) failed = 1;
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(code ?? 1);
});
