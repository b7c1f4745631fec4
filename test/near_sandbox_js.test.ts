// near-sandbox, the npm library that starts nearcore's sandbox binary (`Sandbox.start`), with
// nearlite's launcher standing in for the binary through its documented NEAR_SANDBOX_BIN_PATH. The
// library runs `--version`, `--home H init --fast`, merges its accounts into genesis.json and its
// settings (including nearcore's own `store` section) into config.json, then `--home H run
// --rpc-addr … --network-addr …`, waits for GET /status and kills the process at tearDown; its
// dump() runs `--home H view-state dump-state --stream` on the running node.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import t from 'tap';
import { installOnce } from './helpers/npm_install.js';

const ROOT = join(import.meta.dirname, '..');
const INSTALL = join(import.meta.dirname, '.near-sandbox-js');
const VERSION = '0.3.4';

const install = () => installOnce(INSTALL, 'near-sandbox', VERSION);

const NEAR = 10n ** 24n;
// A transfer between accounts of one shard burns action_receipt_creation and transfer, each sent
// and executed (108,059,500,000 and 115,123,062,500 gas, parameters.snap at 86), at the localnet's
// minimum gas price of 100,000,000 yocto.
const TRANSFER_COST = 2n * (108_059_500_000n + 115_123_062_500n) * 100_000_000n;

t.test("near-sandbox's Sandbox.start runs nearlite, with its accounts and settings", async (t) => {
  install();
  const run = spawnSync(
    process.execPath,
    [join(import.meta.dirname, 'near_sandbox_js', 'driver.mjs'), INSTALL],
    {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, NEAR_SANDBOX_BIN_PATH: join(ROOT, 'packages', 'node', 'bin', 'near-sandbox') },
    },
  );
  t.equal(run.status, 0, run.stderr);
  const r = JSON.parse(run.stdout) as Record<string, unknown>;
  t.equal(r.epochLength, 60, "init --fast: nearcore's FAST_EPOCH_LENGTH");
  t.same(r.minDelay, { secs: 0, nanos: 120_000_000 }, 'init --fast: FAST_MIN_BLOCK_PRODUCTION_DELAY');
  t.same(r.maxDelay, { secs: 0, nanos: 500_000_000 }, 'init --fast: FAST_MAX_BLOCK_PRODUCTION_DELAY');
  t.equal(r.validityPeriod, 1000, 'its genesis override');
  t.equal(r.gcEpochs, 7, 'its config override');
  t.ok(r.keyFile, 'its key file for the extra account');
  t.equal(r.aliceAmount, String(52n * NEAR), 'the extra genesis account, and a transfer to it');
  t.equal(
    r.rootAmount,
    String(10_000n * NEAR - 2n * NEAR + NEAR - TRANSFER_COST),
    'the default account paid one transfer',
  );
  t.same(
    r.dumpKeys,
    ['config', 'genesis', 'nodeKey', 'validatorKey'],
    'dump() read every file the state dump wrote',
  );
  t.equal(r.dumpedAlice, String(51n * NEAR - TRANSFER_COST), "dump(): the accounts' balances at the head");
  t.equal(r.dumpedRoot, r.rootAmount);
  t.ok((r.dumpedHeight as number) > 1, 'dump(): a genesis above the head');
  t.equal(r.dumpedValidatorKey, 'test.near');
  t.ok(r.homeRemoved, 'tearDown stopped the node and removed its home');
});
