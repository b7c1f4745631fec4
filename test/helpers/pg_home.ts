// A PostgreSQL server with a meta and a shard database, and a node home on the mainnet genesis:
// what the CLI tests of a PostgreSQL history start from. The server stops at teardown.
import { join } from 'node:path';
import type { Test } from 'tap';
import { MAINNET_GENESIS } from './mainnet.js';
import { initHome } from './node.js';
import { startPostgres, type TestPostgres } from './postgres.js';
import { tempDir } from './tmp.js';

export interface PgHome {
  readonly metaUrl: string;
  readonly shardUrl: string;
  /** The test's directory; the home is its `home`. */
  readonly dir: string;
  readonly home: string;
  readonly server: TestPostgres;
}

export async function pgHome(t: Test): Promise<PgHome> {
  const server = await startPostgres();
  t.teardown(() => server.stop());
  const metaUrl = await server.createDatabase('meta');
  const shardUrl = await server.createDatabase('shard0');
  const dir = tempDir(t);
  const home = join(dir, 'home');
  initHome(home, ['--genesis', MAINNET_GENESIS]);
  return { metaUrl, shardUrl, dir, home, server };
}

/** The flags naming a home's meta database and its one shard database. */
export function storeArgs(pg: Pick<PgHome, 'metaUrl' | 'shardUrl'>): string[] {
  return ['--store', pg.metaUrl, '--shard-db', `0=${pg.shardUrl}`];
}

/** `run` following the NEAR Lake files in `lake`, RPC on a free port (a writer, given `storeArgs`). */
export function followLakeArgs(home: string, lake: string): string[] {
  return ['run', '--home', home, '--rpc-addr', '127.0.0.1:0', '--follow', `file:${lake}`];
}

/** `serve` on a home's databases (given `storeArgs`), RPC on a free port: a front end. */
export function serveArgs(home: string, store: Pick<PgHome, 'metaUrl' | 'shardUrl'>): string[] {
  return ['serve', '--home', home, '--rpc-addr', '127.0.0.1:0', ...storeArgs(store)];
}
