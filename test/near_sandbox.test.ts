// The `near-sandbox` launcher as near-workspaces starts it: `--home H init`, then `--home H run
// --rpc-addr … --network-addr …`, possibly with an environment holding no PATH, stopped with SIGINT.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { tempDir } from './helpers/tmp.js';

const LAUNCHER = join(import.meta.dirname, '..', 'packages', 'node', 'bin', 'near-sandbox');

t.test('near-sandbox runs with no PATH, serves the sandbox methods and stops on SIGINT', async (t) => {
  t.ok(existsSync(LAUNCHER), 'npm install wrote the launcher');
  const home = tempDir(t);
  const init = spawnSync(LAUNCHER, ['--home', home, 'init'], { env: {}, encoding: 'utf8' });
  t.equal(init.status, 0, init.stderr);
  const key = JSON.parse(readFileSync(join(home, 'validator_key.json'), 'utf8')) as { account_id: string };
  t.equal(key.account_id, 'test.near', 'validator_key.json is where near-workspaces reads it');

  const proc = spawn(
    LAUNCHER,
    ['--home', home, 'run', '--rpc-addr', '127.0.0.1:0', '--network-addr', '0.0.0.0:0'],
    { env: { RUST_BACKTRACE: 'full' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (proc.exitCode === null) proc.kill('SIGKILL');
  });
  let logs = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no RPC address in:\n${logs}`)), 30_000);
    proc.stderr!.on('data', (d) => {
      logs += String(d);
      const m = /RPC on (http:\/\/[^\s"]+)/.exec(logs);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  const rpc = async (method: string, params: unknown) =>
    (await (
      await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
    ).json()) as { result?: unknown; error?: { cause: { name: string } } };
  t.ok((await rpc('block', { finality: 'optimistic' })).result, '`block` answers');
  // The launcher execs Node in place: its process is the node, with the malloc settings that the
  // first line of near-sandbox.js names (`nearlite.js` says why). glibc may end each setting it
  // applies with a NUL where the ':' was, in the process's own environment block.
  const environ = `\0${readFileSync(`/proc/${proc.pid}/environ`, 'utf8')}`;
  const shebang = readFileSync(`${LAUNCHER}.js`, 'utf8').split('\n', 1)[0]!;
  const tunables = / GLIBC_TUNABLES=(\S+) /.exec(shebang)?.[1];
  t.match(tunables, /glibc\.malloc\.mmap_threshold=\d+/, 'near-sandbox.js names the settings');
  t.ok(
    [tunables, tunables?.replaceAll(':', '\0')].some((v) => environ.includes(`\0GLIBC_TUNABLES=${v}\0`)),
    'the node runs with them',
  );
  const patched = await rpc('sandbox_patch_state', {
    records: [
      {
        Data: {
          account_id: 'test.near',
          data_key: Buffer.from('k').toString('base64'),
          value: Buffer.from('v').toString('base64'),
        },
      },
    ],
  });
  t.same(patched, { jsonrpc: '2.0', id: 1, result: {} }, 'the sandbox methods are on');
  proc.kill('SIGINT');
  t.equal(await exited, 0, 'SIGINT stops it cleanly');
});
