#!/usr/bin/env -S GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4194304:glibc.malloc.trim_threshold=33554432 node
// `near-sandbox`'s command line (`--home DIR init`, `--home DIR run --rpc-addr …`) on nearlite, with
// the sandbox methods on: what near-workspaces expects of the binary it starts. The first line sets
// the malloc settings `nearlite.js` explains.
import { runCli } from './run_cli.js';

const argv = process.argv.slice(2);
// The sandbox methods are a running node's: `init` and the other commands take no --sandbox.
await runCli('near-sandbox', argv.includes('run') ? [...argv, '--sandbox'] : argv);
