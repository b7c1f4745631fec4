// Runs the real CLI in its own process and waits for its RPC address.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { statCpuSeconds } from '../../packages/node/dist/thread_cpu.js';
import { launchEnv } from '../../scripts/launch_env.mjs';

export const CLI = join(import.meta.dirname, '..', '..', 'packages', 'node', 'bin', 'nearlite.js');

/**
 * The variables the launcher's first line sets (`#!/usr/bin/env -S NAME=value … node`). The bench
 * starts the CLI with `node` to pass profiling flags, and with these it runs as the `nearlite`
 * command and `npm start` do.
 */
export const LAUNCH_ENV = { ...process.env, ...launchEnv(CLI) };

const running = new Set();
// A failed run must not leave a node holding the dataset's LOCK.
process.on('exit', () => {
  for (const p of running) p.kill('SIGKILL');
});

export function cliSync(args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: LAUNCH_ENV });
  if (r.status !== 0) throw new Error(`nearlite ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

// Extra Node.js flags for the served node, e.g. BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=prof".
const NODE_FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);

export async function startNode(home, extra = []) {
  const started = performance.now();
  const proc = spawn(
    process.execPath,
    [...NODE_FLAGS, CLI, 'run', '--home', home, '--rpc-addr', '127.0.0.1:0', ...extra],
    {
      stdio: ['ignore', process.env.BENCH_NODE_STDOUT ? 'inherit' : 'ignore', 'pipe'],
      env: LAUNCH_ENV,
    },
  );
  running.add(proc);
  proc.on('exit', () => running.delete(proc));
  let logs = '';
  const url = await new Promise((resolve, reject) => {
    proc.stderr.on('data', (d) => {
      logs += d;
      if (process.env.BENCH_NODE_LOG) process.stderr.write(d);
      const m = /RPC on (http:\/\/[^\s"]+)/.exec(logs);
      if (m) resolve(m[1]);
    });
    proc.on('exit', (c) => reject(new Error(`node exited ${c}: ${logs}`)));
  });
  // Start-up ends with the first answered request.
  await rpc(url, 'status', []);
  const startupMs = performance.now() - started;
  return {
    url,
    proc,
    startupMs,
    async stop() {
      const done = new Promise((r) => proc.on('exit', r));
      proc.kill('SIGTERM');
      await done;
    },
  };
}

export async function rpc(url, method, params) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'bench', method, params }),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** Fields of /proc/<pid>/status in MB (Linux); null when the process is gone. */
async function statusMb(pid, fields) {
  const { readFile } = await import('node:fs/promises');
  let status;
  try {
    status = await readFile(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const mb = (field) => {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1];
    return kb === undefined ? null : Math.round(Number(kb) / 1024);
  };
  return fields.map(mb);
}

/**
 * Resident memory now, in MB: all of it, the process's private part, and the pages of mapped files
 * (LevelDB maps its table files into memory to read them, so every table page a read touches counts
 * here until the table is closed; the kernel can drop those clean pages).
 */
export async function memoryMb(pid) {
  const mb = await statusMb(pid, ['VmRSS', 'RssAnon', 'RssFile']);
  return mb && { rss: mb[0], anon: mb[1], file: mb[2] };
}

/** CPU time a process (or, given `tid`, one of its threads) has used so far, user and system, in seconds (Linux). */
export async function cpuSeconds(pid, tid = null) {
  const { readFile } = await import('node:fs/promises');
  return statCpuSeconds(
    await readFile(tid === null ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'latin1'),
  );
}

/** Peak (or, with 'VmRSS', current) RSS of a process in MB. */
export async function rssMb(pid, field = 'VmHWM') {
  return (await statusMb(pid, [field]))?.[0] ?? null;
}
