#!/usr/bin/env node
// `near-sandbox`'s command line (`--home DIR init`, `--home DIR run --rpc-addr …`) on nearlite, with
// the sandbox methods on: what near-workspaces expects of the binary it starts.
import { main } from '../dist/cli.js';

main([...process.argv.slice(2), '--sandbox']).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`near-sandbox: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
