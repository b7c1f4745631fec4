// A real S3 server for tests (s3rver on 127.0.0.1, a free port), in a temporary directory of its
// own: a test's tempDir(t) is usually taken by the chain's home. Closed and removed at teardown.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { Test } from 'tap';

/** Starts it with `buckets` created; returns its endpoint URL. The SDK's credentials are set. */
export async function startS3(test: Test, buckets: readonly string[]): Promise<string> {
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const dir = mkdtempSync(join(tmpdir(), 'nearlite-s3rver-'));
  test.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: buckets.map((name) => ({ name, configs: [] })),
  });
  const { port } = (await s3.run()) as { port: number };
  test.teardown(() => s3.close());
  return `http://127.0.0.1:${port}`;
}
