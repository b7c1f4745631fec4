import { spawn, execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
const C = '/work/main/bench/.cache';
const CLI = '/work/main/packages/node/bin/nearlite.js';
const flags = process.argv.slice(2);
rmSync('/tmp/fh', { recursive: true, force: true });
execFileSync('node', [CLI, 'init', '--home', '/tmp/fh', '--genesis', `${C}/home-quick/genesis.json`], { stdio: 'ignore' });
const t0 = performance.now();
const p = spawn('node', [...flags, CLI, 'run', '--home', '/tmp/fh', '--rpc-addr', '127.0.0.1:0', '--follow', `file:${C}/lake-quick`, '--archive'], { stdio: ['ignore', 'pipe', 'pipe'] });
let logs = ''; p.stderr.on('data', (d) => (logs += d)); p.stdout.on('data', (d) => (logs += d));
let url; while (!(url = /RPC on (http:\/\/[^\s"]+)/.exec(logs)?.[1])) await new Promise((r) => setTimeout(r, 10));
const up = performance.now();
for (;;) {
  const r = await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'status', params: [] }) })).json();
  if (r.result.sync_info.latest_block_height >= 2441) break;
  await new Promise((r) => setTimeout(r, 20));
}
const end = performance.now();
const st = (await import('node:fs')).readFileSync(`/proc/${p.pid}/stat`, 'utf8').split(') ')[1].split(' ');
const cpu = (Number(st[11]) + Number(st[12])) / 100;
console.log(flags.join(' ') || '(none)', 'total', ((end - t0) / 1000).toFixed(2), 's; after RPC up', ((end - up) / 1000).toFixed(2), 's;', Math.round(2442 / ((end - t0) / 1000)), 'blocks/s overall; cpu', cpu.toFixed(2), 's');
p.kill('SIGINT');
