// Damage to a row in LevelDB's tables, as a disk can leave it: LevelDB verifies no checksum when it
// reads, so bytes changed in an .ldb file come back as they are. The node's tables are written
// uncompressed, so a row's value stands in its table as stored and is found by its bytes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Finds `value` in the tables of the database at `dataDir` and lets `damage` change the bytes of the
 * table holding it in place (`at`: where the value starts); returns how many tables held it.
 */
export function damageInTables(
  dataDir: string,
  value: Uint8Array,
  damage: (table: Buffer, at: number) => void,
): number {
  let found = 0;
  for (const name of readdirSync(dataDir).filter((n) => n.endsWith('.ldb'))) {
    const file = join(dataDir, name);
    const bytes = readFileSync(file);
    const at = bytes.indexOf(value);
    if (at < 0) continue;
    damage(bytes, at);
    writeFileSync(file, bytes);
    found++;
  }
  return found;
}
