// Damage to a stopped node's LevelDB log, as a disk or filesystem can leave it after a crash: a torn
// tail (the ordinary crash), bytes overwritten in the middle or early on, the log cut to half or emptied.
import { closeSync, openSync, readdirSync, statSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The home's largest LevelDB log (the one the last run wrote). */
export function logFile(home: string): string {
  const data = join(home, 'data');
  const logs = readdirSync(data)
    .filter((f) => f.endsWith('.log'))
    .map((f) => join(data, f))
    .sort((a, b) => statSync(b).size - statSync(a).size);
  if (!logs[0]) throw new Error('no LevelDB log');
  return logs[0];
}

function overwrite(path: string, offset: number, bytes: Uint8Array): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, bytes, 0, bytes.length, offset);
  closeSync(fd);
}

function patternBytes(n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 97 + 13) & 0xff;
  return b;
}

export const LOG_DAMAGE: [string, (log: string) => void][] = [
  ['a torn tail', (log) => truncateSync(log, statSync(log).size - 100)],
  [
    '64 random bytes in the middle',
    (log) => overwrite(log, Math.floor(statSync(log).size / 2), patternBytes(64)),
  ],
  ['bytes early in the log', (log) => overwrite(log, 1000, patternBytes(64))],
  ['the log cut to half', (log) => truncateSync(log, Math.floor(statSync(log).size / 2))],
  ['the log emptied', (log) => truncateSync(log, 0)],
];
