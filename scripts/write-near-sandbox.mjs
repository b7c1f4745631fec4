#!/usr/bin/env node
// Writes packages/node/bin/near-sandbox, the executable near-workspaces starts in place of nearcore's
// sandbox binary. near-workspaces may start it with an environment holding no PATH, so the launcher
// names this Node by its absolute path, known only once installed (run by `npm install`/`npm ci`).
// It exports the variables the first line of near-sandbox.js sets (`#!/usr/bin/env -S NAME=value …
// node`), which that line cannot do without a PATH to find Node on.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchEnv } from './launch_env.mjs';

const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`;
const bin = join(import.meta.dirname, '..', 'packages', 'node', 'bin');
const exports = Object.entries(launchEnv(join(bin, 'near-sandbox.js')))
  .map(([name, value]) => `export ${name}=${quote(value)}\n`)
  .join('');
const target = join(bin, 'near-sandbox');
writeFileSync(
  target,
  `#!/bin/sh\n# Written by npm install (scripts/write-near-sandbox.mjs): Node is named by its path.\n${exports}exec ${quote(process.execPath)} "\${0%/*}/near-sandbox.js" "$@"\n`,
);
chmodSync(target, 0o755);
