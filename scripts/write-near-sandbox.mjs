#!/usr/bin/env node
// Writes packages/node/bin/near-sandbox, the executable near-workspaces starts in place of nearcore's
// sandbox binary. near-workspaces may start it with an environment holding no PATH, so the launcher
// names this Node by its absolute path, known only once installed (run by `npm install`/`npm ci`).
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`;
const target = join(import.meta.dirname, '..', 'packages', 'node', 'bin', 'near-sandbox');
writeFileSync(
  target,
  `#!/bin/sh\n# Written by npm install (scripts/write-near-sandbox.mjs): Node is named by its path.\nexec ${quote(process.execPath)} "\${0%/*}/near-sandbox.js" "$@"\n`,
);
chmodSync(target, 0o755);
