// nearcore's dynamic config (nearcore/src/dyn_config.rs, core/dyn-configs): what a running node takes up
// again when it gets SIGHUP. `log_config.json` in the home sets the log's filter, and config.json's
// `expected_shutdown` the height at which the node stops by itself. Both are read at the start too: a
// file that cannot be read then stops the start, as nearcore's does; on SIGHUP the node says so, sets
// `near_config_correct` to 0 and keeps what it had.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCommentedJson } from '@nearlite/primitives';
import { Gauge, type Registry } from 'prom-client';
import { homeConfig } from './home.js';
import { type LogFilter, type Logger, logFilterProblem } from './log.js';
import { scrapedCounter, scrapedGauge } from './scraped_gauge.js';

export const LOG_CONFIG_FILENAME = 'log_config.json';

export interface UpdatableConfigs {
  /** log_config.json's filter; null: there is no such file. */
  readonly logConfig: LogFilter | null;
  readonly expectedShutdown: number | null;
}

export class DynConfigError extends Error {
  override readonly name = 'DynConfigError';
}

function stringOrNull(v: unknown, what: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new DynConfigError(`${what} must be a string or null`);
  return v;
}

/** nearcore's LogConfig from the home's log_config.json (comments allowed); null when there is none. */
export function readLogConfig(home: string): LogFilter | null {
  const path = join(home, LOG_CONFIG_FILENAME);
  let raw: unknown;
  try {
    raw = parseCommentedJson(readFileSync(path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new DynConfigError(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new DynConfigError(`${path} is not a JSON object`);
  const o = raw as Record<string, unknown>;
  const rustLog = stringOrNull(o.rust_log, `${path}: rust_log`);
  const verboseModule = stringOrNull(o.verbose_module, `${path}: verbose_module`);
  // Traces' verbosity: read as nearcore reads it, though this node exports no traces.
  stringOrNull(o.opentelemetry, `${path}: opentelemetry`);
  // A filter the log cannot take is no error of the file's, as nearcore reads it: the log keeps its
  // filter, and the rest of the reload goes on (`applyLog`).
  return { rustLog: rustLog ?? undefined, verboseModule };
}

/** Both files as they are now; a DynConfigError names every one that cannot be read. */
export function readUpdatableConfigs(home: string): UpdatableConfigs {
  const errors: string[] = [];
  let logConfig: LogFilter | null = null;
  let expectedShutdown: number | null = null;
  try {
    logConfig = readLogConfig(home);
  } catch (err) {
    errors.push((err as Error).message);
  }
  try {
    expectedShutdown = homeConfig(home).expectedShutdown;
  } catch (err) {
    errors.push((err as Error).message);
  }
  if (errors.length > 0) throw new DynConfigError(errors.join('; '));
  return { logConfig, expectedShutdown };
}

/** A Rust `Option<u64>` as `{:?}` writes it, the value label of nearcore's `near_config_mutable_field`. */
const debugOption = (v: number | null) => (v === null ? 'None' : `Some(${v})`);

export class DynamicConfig {
  private shutdownAt: number | null;
  private lastHead: number | null = null;
  private triggered = false;
  private reloads = 1;
  private reloadedAt = Math.floor(Date.now() / 1000);
  private correct = 1;
  /** Since when the field has been watched: nearcore's label never moves after the start. */
  private readonly since = this.reloadedAt;
  /** Each value `expected_shutdown` has had, with 1 for the one it has now (nearcore's labels). */
  private readonly values = new Map<string, number>();
  private readonly watchers: ((height: number | null) => void)[] = [];
  private resolveShutdown: (reason: string) => void = () => {};
  /** Settles, with what to log, once the head reaches `expected_shutdown`. */
  readonly shutdown = new Promise<string>((resolve) => {
    this.resolveShutdown = resolve;
  });

  private constructor(
    private readonly home: string,
    private readonly logger: Logger,
    initial: UpdatableConfigs,
  ) {
    this.shutdownAt = initial.expectedShutdown;
    this.values.set(debugOption(this.shutdownAt), 1);
    this.applyLog(initial.logConfig);
  }

  /**
   * Reads both files and applies them; one that cannot be read stops the start (DynConfigError).
   * `expectedShutdown`: config.json's, where the node has read the file already.
   */
  static open(home: string, logger: Logger, expectedShutdown?: number | null): DynamicConfig {
    const initial =
      expectedShutdown === undefined
        ? readUpdatableConfigs(home)
        : { logConfig: readLogConfig(home), expectedShutdown };
    return new DynamicConfig(home, logger, initial);
  }

  get expectedShutdown(): number | null {
    return this.shutdownAt;
  }

  /** Calls `f` with `expected_shutdown` now, and again whenever a reload changes it. */
  watchExpectedShutdown(f: (height: number | null) => void): void {
    this.watchers.push(f);
    f(this.shutdownAt);
  }

  /** On SIGHUP: both files read again; applied if both can be read, else nothing changes. */
  reload(): boolean {
    let configs: UpdatableConfigs;
    try {
      configs = readUpdatableConfigs(this.home);
    } catch (err) {
      this.correct = 0;
      this.logger.warn(
        'Dynamically updatable configs are not valid. Please fix this ASAP otherwise the node will be ' +
          `unable to restart: ${(err as Error).message}`,
      );
      return false;
    }
    this.correct = 1;
    this.applyLog(configs.logConfig);
    this.applyExpectedShutdown(configs.expectedShutdown);
    this.reloads++;
    this.reloadedAt = Math.floor(Date.now() / 1000);
    return true;
  }

  /** The node's head moved: at `expected_shutdown` or above it, the node stops. */
  headAt(height: number): void {
    this.lastHead = height;
    const at = this.shutdownAt;
    if (this.triggered || at === null || height < at) return;
    this.triggered = true;
    this.resolveShutdown(`Expected shutdown triggered: head block(${height}) >= (${at})`);
  }

  register(registry: Registry): void {
    scrapedCounter(
      registry,
      'near_config_reloads_total',
      'Number of times the configs were reloaded during the current run of the process',
      () => this.reloads,
    );
    scrapedGauge(
      registry,
      'near_config_reload_timestamp_seconds',
      'Timestamp of the last reload of the config',
      () => this.reloadedAt,
    );
    scrapedGauge(
      registry,
      'near_config_correct',
      'Are the current dynamically loadable configs correct',
      () => this.correct,
    );
    const self = this;
    new Gauge({
      name: 'near_config_mutable_field',
      help: 'Timestamp and value of a mutable config field',
      labelNames: ['field_name', 'timestamp', 'value'],
      registers: [registry],
      collect() {
        for (const [value, figure] of self.values)
          this.set({ field_name: 'expected_shutdown', timestamp: String(self.since), value }, figure);
      },
    });
  }

  private applyLog(filter: LogFilter | null): void {
    const path = join(this.home, LOG_CONFIG_FILENAME);
    if (filter)
      this.logger.info(
        `Changing the config ${path}: rust_log ${JSON.stringify(filter.rustLog ?? null)}, ` +
          `verbose_module ${JSON.stringify(filter.verboseModule)}`,
      );
    else this.logger.info(`Reset the config ${path} because the config file doesn't exist.`);
    const problem = filter ? logFilterProblem(filter.rustLog, filter.verboseModule) : null;
    if (problem) {
      this.logger.error(
        `Failed to update the logging layer according to the changed \`${LOG_CONFIG_FILENAME}\`. Errors: ${problem}`,
      );
      return;
    }
    this.logger.reload?.(filter);
    this.logger.info(`Updated the logging layer according to \`${LOG_CONFIG_FILENAME}\``);
  }

  private applyExpectedShutdown(height: number | null): void {
    const before = this.shutdownAt;
    if (height === before) {
      this.logger.info(`Mutable config field 'expected_shutdown' remains the same: ${debugOption(height)}`);
      return;
    }
    this.logger.info(
      `Updated config field 'expected_shutdown' from ${debugOption(before)} to ${debugOption(height)}`,
    );
    this.values.set(debugOption(before), 0);
    this.values.set(debugOption(height), 1);
    this.shutdownAt = height;
    for (const f of this.watchers) f(height);
    if (this.lastHead !== null) this.headAt(this.lastHead);
  }
}
