#!/usr/bin/env node
import { runCli } from './run_cli.js';

await runCli('nearlite', process.argv.slice(2));
