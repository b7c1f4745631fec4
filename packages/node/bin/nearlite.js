#!/usr/bin/env -S GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4194304:glibc.malloc.trim_threshold=33554432 node
// The malloc settings keep glibc from handing the memory of each freed LevelDB batch back to the
// system and faulting it in again for the next one: a follower catching up builds a batch of about a
// megabyte every few milliseconds, and on virtual machines where a fresh page costs ~16 µs to touch
// that was ~8 % of its CPU. Fixed thresholds (4 MiB to map, 32 MiB kept free at the top of the
// heap) also end glibc's own threshold tuning. Other C libraries ignore the variable; run the script
// with `node` to choose your own.
import { runCli } from './run_cli.js';

await runCli('nearlite', process.argv.slice(2));
