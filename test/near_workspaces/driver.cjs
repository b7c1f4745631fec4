// Drives near-workspaces (installed from npm, its binary download disabled) against nearlite's
// near-sandbox launcher, as a contract developer's test would, and prints what it saw as JSON.
// Run: node driver.cjs <dir holding node_modules/near-workspaces> <contract.wasm>
const { createRequire } = require('node:module');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const [installDir, wasmPath] = process.argv.slice(2);
const { Worker } = createRequire(join(installDir, 'package.json'))('near-workspaces');
const NEAR = 10n ** 24n;

async function one(tag) {
  const started = Date.now();
  const worker = await Worker.init();
  const readyMs = Date.now() - started;
  const home = worker.config.homeDir;
  const root = worker.rootAccount;
  const alice = await root.createSubAccount(`alice${tag}`, { initialBalance: (10n * NEAR).toString() });
  const hello = await root.devDeploy(readFileSync(wasmPath));
  const greeting = await hello.view('hello', { name: 'trex' });
  await alice.call(hello, 'setValue', { value: 'foo' });
  const value = await hello.view('getValue', {});
  await alice.updateAccount({ amount: (1000n * NEAR).toString() });
  const patchedBalance = (await alice.balance()).total.toString();
  await hello.patchStateRecords({
    records: [
      {
        Data: {
          account_id: hello.accountId,
          data_key: Buffer.from('patched').toString('base64'),
          value: Buffer.from('yes').toString('base64'),
        },
      },
    ],
  });
  const state = await hello.viewStateRaw();
  const patchedState = state.some(
    (e) =>
      Buffer.from(e.key, 'base64').toString() === 'patched' &&
      Buffer.from(e.value, 'base64').toString() === 'yes',
  );
  const before = (await worker.provider.block({ finality: 'optimistic' })).header;
  await worker.provider.fastForward(200);
  const after = (await worker.provider.block({ finality: 'optimistic' })).header;
  await worker.tearDown();
  return {
    home,
    readyMs,
    aliceBalance: await Promise.resolve(patchedBalance),
    greeting,
    value,
    patchedState,
    heights: [before.height, after.height],
    movedNs: (BigInt(after.timestamp_nanosec) - BigInt(before.timestamp_nanosec)).toString(),
  };
}

(async () => {
  // Two workers at once, each with its own sandbox.
  const results = await Promise.all([one('1'), one('2')]);
  process.stdout.write(`${JSON.stringify(results)}\n`);
})().catch((err) => {
  process.stderr.write(`${err?.stack ?? String(err)}\n`);
  process.exit(1);
});
