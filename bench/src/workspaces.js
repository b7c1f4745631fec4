// near-workspaces' start-to-ready time per worker against nearlite's near-sandbox launcher: the
// time `Worker.init()` takes (init a home, start the node, wait for `block` to answer).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export async function measureWorkspaces(cacheDir, runs = 5) {
  const dir = join(cacheDir, 'near-workspaces');
  if (!existsSync(join(dir, 'node_modules', 'near-workspaces'))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
    // Its near-sandbox dependency would download nearcore's binary at install time.
    execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', 'near-workspaces@5.0.0'], {
      cwd: dir,
      stdio: 'ignore',
    });
  }
  process.env.NEAR_SANDBOX_BIN_PATH = '1';
  process.env.NEAR_SANDBOX_BINARY_PATH = join(ROOT, 'packages', 'node', 'bin');
  const { Worker } = createRequire(join(dir, 'package.json'))('near-workspaces');
  const readyMs = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const worker = await Worker.init();
    readyMs.push(Math.round(performance.now() - t0));
    await worker.tearDown();
  }
  const sorted = [...readyMs].sort((a, b) => a - b);
  return { readyMs, medianMs: sorted[Math.floor(sorted.length / 2)] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measureWorkspaces(join(import.meta.dirname, '..', '.cache'));
  console.log(
    `near-workspaces Worker.init() against nearlite: median ${r.medianMs} ms (${r.readyMs.join(', ')})`,
  );
}
