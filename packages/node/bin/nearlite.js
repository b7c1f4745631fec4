#!/usr/bin/env node
import { existsSync } from 'node:fs';

// The bundle (`npm run build` writes it) starts in a fraction of the time of the module tree in dist/.
const entry = existsSync(new URL('../bundle/cli.js', import.meta.url))
  ? '../bundle/cli.js'
  : '../dist/cli.js';
const { main } = await import(entry);

main(process.argv.slice(2)).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`nearlite: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
