// Prometheus gauges whose values are read when /metrics is scraped, rather than kept up to date as
// things happen: the figures behind them (the store's counters, the head, the process's memory) are
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

/** A gauge of one label, each of whose values `read` gives with its figure when scraped. */
export function scrapedLabeledGauge(
  registry: Registry,
  name: string,
  help: string,
  label: string,
  read: () => Iterable<readonly [string, number]>,
): Gauge {
  return new Gauge({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      for (const [value, figure] of read()) this.set({ [label]: value }, figure);
    },
  });
}

/**
 * A read that several gauges of one scrape share, made once by whichever asks first: prom-client
 * collects a scrape's gauges within one turn, so the value is forgotten when the turn ends.
 */
export function oncePerScrape<T>(read: () => T): () => T {
  let taken: { readonly value: T } | undefined;
  return () => {
    if (taken === undefined) {
      taken = { value: read() };
      queueMicrotask(() => {
        taken = undefined;
      });
    }
    return taken.value;
  };
}
