#!/usr/bin/env node
// Keeps `npm ci` working when the registry in use serves only some platform builds of a package
// with per-platform optional dependencies (Biome's CLI): optional dependencies that have no entry in
// package-lock.json are dropped from their parent's entry, so the lock file stays self-consistent.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const path = join(import.meta.dirname, '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(path, 'utf8'));
const present = new Set(Object.keys(lock.packages).map((k) => k.replace(/^.*node_modules\//, '')));
let pruned = 0;
for (const entry of Object.values(lock.packages)) {
  if (!entry.optionalDependencies) continue;
  for (const name of Object.keys(entry.optionalDependencies)) {
    if (!present.has(name)) {
      delete entry.optionalDependencies[name];
      pruned++;
    }
  }
}
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`pruned ${pruned} optional dependencies with no lock entry`);
