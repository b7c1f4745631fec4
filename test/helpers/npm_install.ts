// A client package from the npm registry, installed once into a directory of the tests' own (kept
// between runs, ignored by git) without its install scripts, which would download nearcore's binary.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function installOnce(dir: string, name: string, version: string): void {
  if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
  execFileSync(
    'npm',
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-save', `${name}@${version}`],
    { cwd: dir, stdio: 'ignore' },
  );
}
