// Loads the bundled CLI (a CommonJS script) with V8's code cache. Compiling the bundle's functions
// is a large part of a node's start: Node 20 keeps no compile cache for ES modules, so the CLI is
// bundled as one script and compiled here with the bytecode a previous start left beside it.
//
// The cache is written once a process has run for a while (by then it holds the functions a start and
// its first requests compiled), and only when there was none or V8 refused it. V8 checks its own
// version and flags, but recognises the source by its length alone, so the cache's name carries the
// bundle's size and modification time: a rebuilt bundle never meets an older build's bytecode.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** How long a process runs before it leaves its compiled code for the next start. */
const CACHE_AFTER_MS = 2_000;

/** The cache file for the bundle at `file`, as it is now. */
function cacheFileOf(file) {
  const s = statSync(file);
  return join(dirname(file), '.cache', `${s.size}-${Math.trunc(s.mtimeMs)}-${process.version}.bin`);
}

function readCache(path) {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** Writes next to the bundle where it can; a read-only install simply starts without a cache. */
function writeCache(path, data) {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch {
    // Nothing to undo: the next start compiles from source.
  }
}

/**
 * Runs the CommonJS script at `file` and returns its exports, and whether a code cache was used.
 * `cacheAfterMs` (default CACHE_AFTER_MS) says when to leave a cache for the next start; the timer
 * does not keep the process alive.
 */
export function loadBundle(file, { cacheAfterMs = CACHE_AFTER_MS } = {}) {
  const source = readFileSync(file, 'utf8');
  const cachePath = cacheFileOf(file);
  const cachedData = readCache(cachePath);
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename: file, cachedData });
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
  const module = { exports: {} };
  script
    .runInThisContext()
    .call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  if (!cacheUsed) {
    const timer = setTimeout(() => writeCache(cachePath, script.createCachedData()), cacheAfterMs);
    timer.unref();
  }
  return { exports: module.exports, cacheUsed };
}
