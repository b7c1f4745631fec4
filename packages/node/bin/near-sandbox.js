#!/usr/bin/env node
// `near-sandbox`'s command line (`--home DIR init`, `--home DIR run --rpc-addr …`) on nearlite, with
// the sandbox methods on: what near-workspaces expects of the binary it starts.
import { runCli } from './run_cli.js';

await runCli('near-sandbox', [...process.argv.slice(2), '--sandbox']);
