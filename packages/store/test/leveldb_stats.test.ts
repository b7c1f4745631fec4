// LevelDB's own account of its levels, compactions and memory, as the store reads it for /metrics:
// checked against the table files on disk and against a text in LevelDB's format.

import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DBCol, LEVELDB_LEVELS, parseLeveldbStats, Store, StoreUpdate } from '@nearlite/store';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';

const MIB = 1024 * 1024;

t.test("a store's LevelDB figures match its table files", async (t) => {
  const path = join(tempDir(t), 'data');
  const store = await Store.open(path);
  t.teardown(() => store.close());
  const empty = store.leveldbStats();
  t.ok(empty, 'figures from an open LevelDB');
  t.equal(empty!.levels.length, LEVELDB_LEVELS);
  t.same(
    empty!.levels.map((l) => l.files + l.bytes),
    new Array(LEVELDB_LEVELS).fill(0),
    'a new database has no table',
  );
  // 6 MiB of rows that do not compress, in the memtable until flushed.
  for (let b = 0; b < 6; b++) {
    const u = new StoreUpdate();
    for (let i = 0; i < 256; i++) u.put(DBCol.BlockMisc, randomBytes(32), randomBytes(4096));
    await store.commit(u);
  }
  const filling = store.leveldbStats()!;
  t.ok(filling.memoryBytes >= 6 * MIB, `the memtable holds the rows (${filling.memoryBytes} bytes)`);
  await store.flushLog();
  const flushed = store.leveldbStats()!;
  const onDisk = readdirSync(path)
    .filter((f) => f.endsWith('.ldb'))
    .reduce((n, f) => n + statSync(join(path, f)).size, 0);
  const files = readdirSync(path).filter((f) => f.endsWith('.ldb')).length;
  t.ok(onDisk > 6 * MIB, `the rows are in tables (${onDisk} bytes)`);
  const levelBytes = flushed.levels.reduce((n, l) => n + l.bytes, 0);
  t.ok(
    Math.abs(levelBytes - onDisk) <= MIB / 2,
    `the levels' bytes are the table files', to the MiB (${levelBytes / MIB} MiB)`,
  );
  t.equal(
    flushed.levels.reduce((n, l) => n + l.files, 0),
    files,
    "the levels' files are the table files",
  );
  const written = flushed.levels.reduce((n, l) => n + l.compactionWrittenBytes, 0);
  t.ok(
    written >= 5 * MIB && written <= onDisk + MIB,
    `the flush counts as a compaction's writes, in whole MiB (${written / MIB} MiB)`,
  );
  t.ok(flushed.memoryBytes < filling.memoryBytes, 'the flushed memtable is let go');
  await store.close();
  t.equal(store.leveldbStats(), null, 'nothing once closed');
});

t.test("LevelDB's stats text: levels it leaves out read as zeros", async (t) => {
  const stats = [
    '                               Compactions',
    'Level  Files Size(MB) Time(sec) Read(MB) Write(MB)',
    '--------------------------------------------------',
    '  0        1       88         1        0        88',
    '  2       14      112        12      240       236',
    '',
  ].join('\n');
  const s = parseLeveldbStats(stats, '134217728');
  t.equal(s.memoryBytes, 134217728);
  t.same(s.levels[0], {
    level: 0,
    files: 1,
    bytes: 88 * MIB,
    compactionSeconds: 1,
    compactionReadBytes: 0,
    compactionWrittenBytes: 88 * MIB,
  });
  t.same(s.levels[1], {
    level: 1,
    files: 0,
    bytes: 0,
    compactionSeconds: 0,
    compactionReadBytes: 0,
    compactionWrittenBytes: 0,
  });
  t.same(s.levels[2], {
    level: 2,
    files: 14,
    bytes: 112 * MIB,
    compactionSeconds: 12,
    compactionReadBytes: 240 * MIB,
    compactionWrittenBytes: 236 * MIB,
  });
  t.equal(parseLeveldbStats('', 'not a number').memoryBytes, 0);
});
