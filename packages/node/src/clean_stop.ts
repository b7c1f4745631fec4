// What a clean stop leaves behind (`<home>/clean_stop.json`): the head it stopped at and a fingerprint
// of the database's files, taken after LevelDB's log was flushed into a table and the database
// closed. LevelDB loses rows only by replaying a damaged log, and a flushed database has nothing in
// its log; every open of the database (another node, `inspect`, `repair`, any LevelDB tool) writes a
// new log and manifest, and any edit of a file changes its size or time, so a fingerprint that still
// matches at the next start means nothing has touched the store since. Such a start can skip the
// check of the heights beneath its head, which reads some ten thousand scattered rows.
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { writeFileWhole } from './write_whole.js';

export interface CleanStop {
  readonly height: number;
  readonly hash: string;
  readonly files: string;
}

export const cleanStopPath = (home: string) => join(home, 'clean_stop.json');

/** Every file of the database directory by name, size and modification time, in name order. */
export function dataFingerprint(dataDir: string): string {
  if (!existsSync(dataDir)) return '';
  return readdirSync(dataDir)
    .sort()
    .map((name) => {
      const s = statSync(join(dataDir, name));
      return `${name}:${s.size}:${s.mtimeMs}`;
    })
    .join('/');
}

/**
 * Written once the store is closed: the files are final from here on. Written whole or not at all
 * (a temporary file renamed over), and a failure (a full disk) is returned, not thrown: the store
 * is closed whole, and a start without the record checks it.
 */
export function writeCleanStop(
  home: string,
  dataDir: string,
  head: { height: number; hash: string },
): Error | null {
  const record: CleanStop = { height: head.height, hash: head.hash, files: dataFingerprint(dataDir) };
  try {
    writeFileWhole(cleanStopPath(home), JSON.stringify(record));
    return null;
  } catch (err) {
    return err as Error;
  }
}

/**
 * Reads and removes the record, before the store is opened (opening changes its files), returning
 * it only if the database is still exactly as that stop left it. The removal is made durable first:
 * a record that outlived a crash of the run about to start would vouch for a log it never saw.
 */
export function takeCleanStop(home: string, dataDir: string): CleanStop | null {
  const path = cleanStopPath(home);
  if (!existsSync(path)) return null;
  let record: CleanStop | null = null;
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as CleanStop;
    if (Number.isSafeInteger(v.height) && typeof v.hash === 'string' && typeof v.files === 'string')
      record = v;
  } catch {
    // Unreadable: treated as absent, so the start checks everything.
  }
  unlinkSync(path);
  const dir = openSync(home, 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
  if (!record || record.files !== dataFingerprint(dataDir)) return null;
  return record;
}
