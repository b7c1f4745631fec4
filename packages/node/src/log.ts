// The node's log: pino (fastify's own logger) writing structured JSON lines to stderr, one object per
// event with its level and time; in a terminal, the same events as plain readable lines. The RPC
// server logs through the same instance, so its errors carry fastify's request ids.
import pino, { type Logger as Pino } from 'pino';

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  /**
   * A contract's `sandbox_debug_log` message, logged at debug level with target "sandbox" as
   * near-sandbox logs it, shown when the filter asks for that target's debug messages.
   */
  readonly sandboxDebug?: (message: string) => void;
  /** The periodic status line, at info level under the target "stats" as nearcore logs it. */
  readonly stats?: (message: string) => void;
  /** The pino instance behind it, handed to the RPC server. */
  readonly pino?: Pino;
  /**
   * Sets the levels anew from `filter` (nearcore's `log_config.json`, read again on SIGHUP); null:
   * back to the filter the process started with.
   */
  readonly reload?: (filter: LogFilter | null) => void;
}

/**
 * What sets the log's levels, as nearcore's `log_config.json` says it: `rust_log`, directives as in
 * `RUST_LOG` (undefined: the environment's), and `verbose_module`, a target whose debug messages are
 * shown ("": every target's).
 */
export interface LogFilter {
  readonly rustLog: string | undefined;
  readonly verboseModule: string | null;
}

/** Plain lines for a person at a terminal: `time LEVEL message`. */
function pretty(): pino.DestinationStream {
  const names: Record<number, string> = {
    10: 'TRACE',
    20: 'DEBUG',
    30: 'INFO',
    40: 'WARN',
    50: 'ERROR',
    60: 'FATAL',
  };
  return {
    write(line: string) {
      const o = JSON.parse(line) as {
        level: number;
        time: number;
        msg?: string;
        target?: string;
        err?: { stack?: string };
      };
      const extra = o.err?.stack ? `\n${o.err.stack}` : '';
      const target = o.target ? `${o.target}: ` : '';
      process.stderr.write(
        `${new Date(o.time).toISOString()} ${names[o.level] ?? o.level} ${target}${o.msg ?? ''}${extra}\n`,
      );
    },
  };
}

/**
 * Whether `RUST_LOG` (the filter near-sandbox reads: comma-separated `target=level` directives and a
 * bare default level) lets the "sandbox" target's debug messages through.
 */
export function rustLogShowsSandboxDebug(rustLog: string | undefined): boolean {
  const { bare, targets } = rustLogDirectives(rustLog);
  const level = targets.get('sandbox') ?? bare.at(-1);
  return level === 'debug' || level === 'trace';
}

/** tracing's levels by number, which its filter takes as it takes their names. */
const NUMBERED: Record<string, string> = {
  0: 'off',
  1: 'error',
  2: 'warn',
  3: 'info',
  4: 'debug',
  5: 'trace',
};
const levelName = (level: string) => {
  const l = level.trim().toLowerCase();
  return NUMBERED[l] ?? l;
};

/**
 * `RUST_LOG`'s directives, each trimmed, levels in lower case and by name: the bare ones (default
 * levels) in their order, and each target's level, the last one given.
 */
function rustLogDirectives(rustLog: string | undefined): {
  readonly bare: string[];
  readonly targets: Map<string, string>;
} {
  const bare: string[] = [];
  const targets = new Map<string, string>();
  for (const directive of rustLog ? rustLog.split(',') : []) {
    const eq = directive.indexOf('=');
    if (eq < 0) bare.push(levelName(directive));
    else targets.set(directive.slice(0, eq).trim(), levelName(directive.slice(eq + 1)));
  }
  return { bare, targets };
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'silent'] as const;
type Level = (typeof LEVELS)[number];

/**
 * The node's level from `RUST_LOG`'s bare directive (`warn`, `debug`, `off`…), as nearcore's filter
 * takes its default level from it; null when it gives none.
 */
export function rustLogLevel(rustLog: string | undefined): Level | null {
  let level: Level | null = null;
  for (const d of rustLogDirectives(rustLog).bare) {
    if (d === 'off') level = 'silent';
    else if ((LEVELS as readonly string[]).includes(d) && d !== 'silent') level = d as Level;
  }
  return level;
}

/** A level `RUST_LOG` names for one target (`stats=warn`); null when it names none it knows. */
export function rustLogTargetLevel(rustLog: string | undefined, target: string): Level | null {
  const d = rustLogDirectives(rustLog).targets.get(target);
  if (d === 'off') return 'silent';
  return d !== undefined && (LEVELS as readonly string[]).includes(d) && d !== 'silent' ? (d as Level) : null;
}

/**
 * A directive as tracing-subscriber's filter reads one: a level alone, or a target (word characters,
 * `:` and `-`) and/or a span in brackets, with `=level` or without.
 */
const DIRECTIVE =
  /^(?:(?:trace|debug|info|warn|error|off|[0-5])|(?:[\w:-]+|\[[^\]]*\]){1,2}(?:=(?:trace|debug|info|warn|error|off|[0-5]))?)$/i;

/**
 * Why nearcore's filter would refuse `rustLog` with `verboseModule`'s debug directive added to it
 * (`EnvFilter::try_new`), naming the first directive it cannot read; null when it reads them all.
 */
export function logFilterProblem(
  rustLog: string | undefined,
  verboseModule: string | null = null,
): string | null {
  const directives = (rustLog ?? '').split(',').map((d) => d.trim());
  if (verboseModule) directives.push(`${verboseModule}=debug`);
  const wrong = directives.find((d) => d !== '' && !DIRECTIVE.test(d));
  return wrong === undefined ? null : `could not create a log filter: "${wrong}" is not a directive`;
}

/**
 * The levels a filter gives the node's log and its two targets of their own. nearcore's filter
 * (tracing's `EnvFilter`) matches each line by target: the node's own lines are nearcore's `near_*`
 * crates', so a `near=LEVEL` directive sets them, then the bare level; `stats` and `sandbox` have
 * their own. A filter given with neither, `""` included, shows nothing of them (tracing adds no
 * default directive); no filter at all is nearcore's default one, `near=info,stats=info,…,warn`.
 */
export function filterLevels(
  filter: LogFilter,
  quiet: boolean,
): { readonly node: Level; readonly sandbox: Level; readonly stats: Level } {
  const { rustLog, verboseModule } = filter;
  // verbose_module adds a debug directive (`add_directive`): a bare one when empty, which takes the
  // place of the bare level given, else one for that target.
  const bare =
    verboseModule === '' ? 'debug' : rustLog === undefined ? 'info' : (rustLogLevel(rustLog) ?? 'silent');
  // `--quiet` asks for warnings and errors at most; the filter may ask for less.
  const capped = (level: Level) => (quiet && LEVELS.indexOf(level) < LEVELS.indexOf('warn') ? 'warn' : level);
  const verbose = (target: string) => verboseModule === '' || verboseModule === target;
  return {
    node: verbose('near') ? capped('debug') : capped(rustLogTargetLevel(rustLog, 'near') ?? bare),
    sandbox: rustLogShowsSandboxDebug(rustLog) || verbose('sandbox') ? 'debug' : 'silent',
    // A target's own directive is kept over `--quiet`: `warn,stats=info` keeps the status line.
    stats: verbose('stats') ? 'debug' : (rustLogTargetLevel(rustLog, 'stats') ?? capped(bare)),
  };
}

export function stderrLogger(quiet = false, rustLog = process.env.RUST_LOG): Logger {
  const destination = process.stderr.isTTY ? pretty() : pino.destination({ fd: 2, sync: true });
  const started: LogFilter = { rustLog, verboseModule: null };
  const levels = filterLevels(started, quiet);
  const log = pino({ level: levels.node, base: { pid: process.pid } }, destination);
  // Children of their own levels, so a target's messages show whatever the node's level.
  const sandbox = log.child({ target: 'sandbox' }, { level: levels.sandbox });
  const stats = log.child({ target: 'stats' }, { level: levels.stats });
  return {
    stats: (m) => stats.info(m),
    info: (m) => log.info(m),
    warn: (m) => log.warn(m),
    error: (m) => log.error(m),
    sandboxDebug: (message: string) => sandbox.debug(message),
    pino: log,
    reload: (filter) => {
      // A `rust_log` left out is the environment's, as nearcore's filter reads it.
      const next = filterLevels(filter ? { ...filter, rustLog: filter.rustLog ?? rustLog } : started, quiet);
      log.level = next.node;
      sandbox.level = next.sandbox;
      stats.level = next.stats;
    },
  };
}

/**
 * Hands each of the process's warnings (Node's own, a dependency's `process.emitWarning`) to `write`
 * as one line, in place of Node's printing them as text on stderr: several lines of it between the
 * JSON events broke the log for anything that reads it line by line (the AWS SDK's notice of the
 * Node versions its later releases need is seven). A later call replaces an earlier one's route.
 * Worker threads keep Node's printing, but for a follower's block preparation threads, which load the
 * AWS SDK too and hand their warnings to the main thread (`prepare_worker.ts`).
 */
export function routeProcessWarnings(write: (line: string) => void): void {
  process.removeAllListeners('warning');
  process.on('warning', (w: Error & { code?: string }) => {
    const code = typeof w.code === 'string' ? `[${w.code}] ` : '';
    write(`${code}${w.name}: ${w.message.trim().replace(/\s*\n\s*/g, ' ')}`);
  });
}

/**
 * An exception nothing caught, or a rejection nothing handled, is logged as one fatal event with
 * its stack before the process exits with status 1, as Node would exit: without this, Node prints
 * it as text between the JSON events, where a log reader finds no event saying why the node ended.
 */
export function logFatalErrors(logger: Logger): void {
  const fatal = (what: string) => (err: unknown) => {
    const msg = `${what}: ${err instanceof Error ? err.message : String(err)}; exiting`;
    if (logger.pino) logger.pino.fatal({ err }, msg);
    else logger.error(msg);
    process.exit(1);
  };
  process.on('uncaughtException', fatal('uncaught exception'));
  process.on('unhandledRejection', fatal('unhandled rejection'));
}
