// LevelDB's own figures in /metrics, read from the database when scraped (`Store.leveldbStats`): per
// level, the table files and their bytes, and what compaction has spent, read and written there
// since the node opened it; the memory its memtables and block cache hold; and the bytes of the
// database's files. Files piling up in level 0 or a compaction rate near a core is what an operator
// sees before LevelDB slows writes.
import type { LeveldbStats } from '@nearlite/store';
import type { Registry } from 'prom-client';
import { dataBytes } from './data_size.js';
import { oncePerScrape, scrapedGauge, scrapedLabeledCounter, scrapedLabeledGauge } from './scraped_gauge.js';

/** What /metrics reads of a LevelDB store. */
export interface LeveldbSource {
  readonly stats: () => LeveldbStats | null;
  /** The database's directory. */
  readonly dataDir: string;
}

export function registerLeveldbMetrics(registry: Registry, source: LeveldbSource): void {
  const read = source.stats;
  // LevelDB's properties are read once a scrape, whichever of the gauges below asks first.
  const stats = oncePerScrape(read);
  type Pick = (l: LeveldbStats['levels'][number]) => number;
  const byLevel = (pick: Pick) => () =>
    (stats()?.levels ?? []).map((l) => [String(l.level), pick(l)] as const);
  const perLevel = (name: string, help: string, pick: Pick) =>
    scrapedLabeledGauge(registry, name, help, 'level', byLevel(pick));
  const perLevelTotal = (name: string, help: string, pick: Pick) =>
    scrapedLabeledCounter(registry, name, help, 'level', byLevel(pick));
  perLevel('nearlite_leveldb_files', "LevelDB's table files in a level", (l) => l.files);
  perLevel(
    'nearlite_leveldb_level_bytes',
    "Bytes of a level's table files (counted in whole MiB)",
    (l) => l.bytes,
  );
  perLevelTotal(
    'nearlite_leveldb_compaction_seconds_total',
    'Time LevelDB spent on compactions writing into a level since the node opened the database (counted in whole seconds)',
    (l) => l.compactionSeconds,
  );
  perLevelTotal(
    'nearlite_leveldb_compaction_read_bytes_total',
    'Bytes compactions into a level read since the node opened the database (counted in whole MiB)',
    (l) => l.compactionReadBytes,
  );
  perLevelTotal(
    'nearlite_leveldb_compaction_written_bytes_total',
    'Bytes compactions into a level (memtable flushes included) wrote since the node opened the database (counted in whole MiB)',
    (l) => l.compactionWrittenBytes,
  );
  scrapedGauge(
    registry,
    'nearlite_leveldb_memory_bytes',
    "LevelDB's memtables (the one filling and the one being flushed) and block cache",
    () => stats()?.memoryBytes ?? 0,
  );
  scrapedGauge(
    registry,
    'nearlite_store_size_bytes',
    "Bytes of the database's files (tables, log, manifest), as the disk holds them",
    () => dataBytes(source.dataDir),
  );
}
