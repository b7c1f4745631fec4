// LevelDB's own figures in /metrics, read from the database when scraped (`Store.leveldbStats`): per
// level, the table files and their bytes, and what compaction has spent, read and written there
// since the node opened it; and the memory its memtables and block cache hold. Files piling up in
// level 0 or a compaction rate near a core is what an operator sees before LevelDB slows writes.
import type { LeveldbStats } from '@nearlite/store';
import { Gauge, type Registry } from 'prom-client';
import { scrapedGauge } from './scraped_gauge.js';

export function registerLeveldbMetrics(registry: Registry, read: () => LeveldbStats | null): void {
  const registers = [registry];
  // One read of LevelDB's properties a scrape, whichever of the gauges below asks first: prom-client
  // collects a scrape's gauges within one turn, so the read is forgotten at the turn's end.
  let taken: LeveldbStats | null | undefined;
  const stats = (): LeveldbStats | null => {
    if (taken === undefined) {
      taken = read();
      queueMicrotask(() => {
        taken = undefined;
      });
    }
    return taken;
  };
  const perLevel = (name: string, help: string, pick: (l: LeveldbStats['levels'][number]) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['level'],
      registers,
      collect() {
        for (const l of stats()?.levels ?? []) this.set({ level: String(l.level) }, pick(l));
      },
    });
  perLevel('nearlite_leveldb_files', "LevelDB's table files in a level", (l) => l.files);
  perLevel(
    'nearlite_leveldb_level_bytes',
    "Bytes of a level's table files (counted in whole MiB)",
    (l) => l.bytes,
  );
  perLevel(
    'nearlite_leveldb_compaction_seconds_total',
    'Time LevelDB spent on compactions writing into a level since the node opened the database (counted in whole seconds)',
    (l) => l.compactionSeconds,
  );
  perLevel(
    'nearlite_leveldb_compaction_read_bytes_total',
    'Bytes compactions into a level read since the node opened the database (counted in whole MiB)',
    (l) => l.compactionReadBytes,
  );
  perLevel(
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
}
