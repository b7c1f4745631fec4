// fastify gives every request a child of the server's logger, bound to the request's id. pino builds
// that child eagerly (its bindings serialised to JSON), although with request logging off fastify logs
// through it only on rare faults; in a profile of `block` reads that was ~2 % of the RPC thread's busy
// time. This child is built the first time something is logged through it.
import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
/** pino's (object, message, ...values) or (message, ...values). */
type LogArgs = [unknown, string?, ...unknown[]];

class RequestLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.options?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  private log(level: Level, args: LogArgs): void {
    const logger = this.logger;
    (logger[level] as unknown as (...a: LogArgs) => void).apply(logger, args);
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  fatal(...args: LogArgs): void {
    this.log('fatal', args);
  }
  error(...args: LogArgs): void {
    this.log('error', args);
  }
  warn(...args: LogArgs): void {
    this.log('warn', args);
  }
  info(...args: LogArgs): void {
    this.log('info', args);
  }
  debug(...args: LogArgs): void {
    this.log('debug', args);
  }
  trace(...args: LogArgs): void {
    this.log('trace', args);
  }
  silent(...args: LogArgs): void {
    this.log('silent', args);
  }
}

/** fastify's `childLoggerFactory`: the request's logger, made on first use. */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildOptions,
): FastifyBaseLogger {
  // Its methods take pino's arguments; pino's overloads are not spelled out here.
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
