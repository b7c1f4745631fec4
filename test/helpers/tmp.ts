// A scratch directory for one test, removed after every teardown registered later has run.
//
// tap's own tempDir(t) removes its folder before the test's teardowns: a node stopped in a
// teardown would still be writing while its home is deleted, and the removal can fail with
// ENOTEMPTY (or the node can fail on files pulled from under it). Teardowns run last-in first-out,
// so a directory taken before the node starts is removed after the node has stopped.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

interface Teardown {
  teardown(fn: () => unknown): void;
}

export function tempDir(t: Teardown, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'nearlite-test-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  t.teardown(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
  return dir;
}
