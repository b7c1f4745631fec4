// Prometheus gauges and counters whose values are read when /metrics is scraped, rather than kept up
// to date as things happen: the figures behind them (the store's counters, the head, the process's
// memory) are already kept elsewhere, and reading them costs nothing until someone asks.
import { Counter, Gauge, type Registry } from 'prom-client';

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

/**
 * A counter (a `_total` that only grows while the process runs) read when scraped: typed `counter`, so
 * `rate()` and the tools that read the declared type treat it as one.
 */
export function scrapedCounter(registry: Registry, name: string, help: string, read: () => number): Counter {
  return new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

/** A counter of one label, each of whose values `read` gives with its figure when scraped. */
export function scrapedLabeledCounter(
  registry: Registry,
  name: string,
  help: string,
  label: string,
  read: () => Iterable<readonly [string, number]>,
): Counter {
  return new Counter({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      this.reset();
      for (const [value, figure] of read()) this.inc({ [label]: value }, figure);
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
