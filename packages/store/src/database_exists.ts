import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Whether a database is at `path` (LevelDB's CURRENT file, naming its manifest), without opening it. */
export function databaseExists(path: string): boolean {
  return existsSync(join(path, 'CURRENT'));
}
