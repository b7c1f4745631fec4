// near-workspaces from npm, with nearlite standing in for nearcore's sandbox binary through the two
// documented variables: Worker.init, sub-accounts, a real contract deployed and called, views,
// patchState of an account and of contract state, fastForward, two workers at once, clean teardown.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import t from 'tap';
// @ts-expect-error plain ESM script shared with the CLI helper
import { ensureContract } from '../scripts/fetch-contracts.mjs';
import { installOnce } from './helpers/npm_install.js';

const ROOT = join(import.meta.dirname, '..');
const INSTALL = join(import.meta.dirname, '.near-workspaces');
const VERSION = '5.0.0';

const install = () => installOnce(INSTALL, 'near-workspaces', VERSION);

/** Processes whose command line names `dir` (near-workspaces puts each sandbox's home there). */
function processesUnder(dir: string): number {
  const r = spawnSync('pgrep', ['-f', dir], { encoding: 'utf8' });
  return r.stdout.split('\n').filter((l) => l.trim().length > 0).length;
}

t.test('near-workspaces runs against nearlite with the documented setup', async (t) => {
  install();
  const wasm = ensureContract('main.wasm') as string;
  const run = spawnSync(
    process.execPath,
    [join(import.meta.dirname, 'near_workspaces', 'driver.cjs'), INSTALL, wasm],
    {
      encoding: 'utf8',
      timeout: 150_000,
      env: {
        ...process.env,
        NEAR_SANDBOX_BIN_PATH: '1',
        NEAR_SANDBOX_BINARY_PATH: join(ROOT, 'packages', 'node', 'bin'),
      },
    },
  );
  t.equal(run.status, 0, run.stderr);
  const results = JSON.parse(run.stdout) as {
    home: string;
    readyMs: number;
    aliceBalance: string;
    greeting: string;
    value: string;
    patchedState: boolean;
    heights: [number, number];
    movedNs: string;
  }[];
  t.equal(results.length, 2, 'two workers at once');
  for (const [i, r] of results.entries()) {
    t.equal(r.greeting, 'hello trex', `worker ${i}: a view of a deployed real contract`);
    t.equal(r.value, 'foo', `worker ${i}: a call changed its state`);
    t.equal(r.aliceBalance, (1000n * 10n ** 24n).toString(), `worker ${i}: patchState of an account`);
    t.ok(r.patchedState, `worker ${i}: patchState of contract state`);
    t.ok(
      r.heights[1] >= r.heights[0] + 200 && r.heights[1] <= r.heights[0] + 202,
      `worker ${i}: fastForward to ${r.heights[1]}`,
    );
    t.ok(BigInt(r.movedNs) >= 200n * 900_000_000n, `worker ${i}: block time moved ${r.movedNs} ns`);
    t.comment(`worker ${i} ready in ${r.readyMs} ms`);
  }
  for (const { home } of results) {
    t.match(home, /sandbox/, `a sandbox home: ${home}`);
    t.equal(processesUnder(home), 0, 'teardown left no nearlite process behind on it');
  }
});
