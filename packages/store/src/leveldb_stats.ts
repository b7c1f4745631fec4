// What LevelDB says of its own tables and memory (its `leveldb.*` properties), for operators: how
// much each level holds, how much compaction has read and written there since the database was
// opened, and what the memtables and the block cache take. Under a stream of transactions the
// compaction thread is one of a node's largest consumers of CPU, and files piling up in level 0
// are what makes LevelDB slow writes down (at 8) and then stop them (at 12).

export interface LevelStats {
  readonly level: number;
  readonly files: number;
  /**
   * The level's table files, and what compactions into it since the open spent, read and wrote:
   * LevelDB gives these in whole MiB and seconds.
   */
  readonly bytes: number;
  readonly compactionSeconds: number;
  readonly compactionReadBytes: number;
  readonly compactionWrittenBytes: number;
}

export interface LeveldbStats {
  /** Levels 0 to 6, each whether or not it holds a file. */
  readonly levels: readonly LevelStats[];
  /** The memtables being filled and flushed, and the block cache. */
  readonly memoryBytes: number;
}

/** LevelDB's number of levels (config::kNumLevels). */
export const LEVELDB_LEVELS = 7;

const MIB = 1024 * 1024;

/**
 * Reads two properties' texts: `leveldb.stats`, a table of each level's files, size, and compaction
 * time, reads and writes (a level with no file and no compaction yet left out, read here as zeros),
 * and `leveldb.approximate-memory-usage`. Both are kept by LevelDB as it goes; `leveldb.sstables`,
 * which would give each file's exact size, prints every file's key range while holding the
 * database's lock, too much on a large database for every scrape.
 */
export function parseLeveldbStats(stats: string, memory: string): LeveldbStats {
  const rows = new Map<number, number[]>();
  for (const line of stats.split('\n')) {
    const cols = line.trim().split(/\s+/);
    if (cols.length === 6 && cols.every((c) => /^\d+$/.test(c))) rows.set(Number(cols[0]), cols.map(Number));
  }
  const levels: LevelStats[] = [];
  for (let level = 0; level < LEVELDB_LEVELS; level++) {
    const [, files = 0, mib = 0, seconds = 0, read = 0, written = 0] = rows.get(level) ?? [];
    levels.push({
      level,
      files,
      bytes: mib * MIB,
      compactionSeconds: seconds,
      compactionReadBytes: read * MIB,
      compactionWrittenBytes: written * MIB,
    });
  }
  const memoryBytes = Number(memory.trim());
  return { levels, memoryBytes: Number.isFinite(memoryBytes) ? memoryBytes : 0 };
}
