// What both commands run: the CLI from the bundle (`npm run build` writes it; it starts in a fraction
// of the time of the module tree in dist/, and from compiled code after its first run), or from
// dist/ when there is no bundle.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { applyHeapPolicy } from './heap_policy.js';
import { loadBundle } from './load_bundle.js';

async function loadCli() {
  const bundle = fileURLToPath(new URL('../bundle/cli.cjs', import.meta.url));
  if (existsSync(bundle)) return loadBundle(bundle).exports;
  return import('../dist/cli.js');
}

/** The commands that run a node, which a SIGHUP never ends (it reads the node's dynamic config). */
const NODE_COMMANDS = new Set(['run', 'start', 'serve']);

export async function runCli(name, argv) {
  // Until the CLI is loaded and its handler in place (a few hundred milliseconds), a SIGHUP would end
  // a starting node by Node's default: it is ignored instead.
  if (argv.some((a) => NODE_COMMANDS.has(a))) process.on('SIGHUP', () => {});
  // Before the bundle is loaded: V8 checks its flags against those its code cache was made with.
  applyHeapPolicy();
  const { main } = await loadCli();
  try {
    const code = await main(argv);
    if (typeof code === 'number') process.exitCode = code;
  } catch (err) {
    process.stderr.write(`${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}
