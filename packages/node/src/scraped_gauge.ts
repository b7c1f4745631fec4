// A Prometheus gauge whose value is read when /metrics is scraped, rather than kept up to date as
// things happen: the figures behind it (the store's counters, the head, the process's memory) are
// already kept elsewhere, and reading them costs nothing until someone asks.
import { Gauge, type Registry } from 'prom-client';

export function scrapedGauge(
  registry: Registry,
  name: string,
  help: string,
  read: () => number | Promise<number>,
): Gauge {
  return new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      const value = read();
      if (typeof value === 'number') this.set(value);
      else return value.then((v) => this.set(v));
    },
  });
}
