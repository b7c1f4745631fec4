import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The bytes of the database directory's files, as `du` counts them but by length: tables, log,
 * manifest. A file LevelDB deletes between the listing and its stat counts nothing.
 */
export function dataBytes(dataDir: string): number {
  let total = 0;
  for (const name of readdirSync(dataDir)) {
    const s = statSync(join(dataDir, name), { throwIfNoEntry: false });
    if (s?.isFile()) total += s.size;
  }
  return total;
}
