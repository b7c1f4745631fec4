// fastify gives every request a child of the server's logger, bound to the request's id. pino builds
// that child eagerly (its bindings serialised to JSON), although with request logging off fastify logs
// through it only on rare faults; in a profile of `block` reads that was ~2 % of the RPC thread's busy
// time. This child is built the first time something is logged through it.
import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
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

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  // One method per pino level, each logging through the child.
  static {
    for (const level of LEVELS) {
      Object.defineProperty(RequestLogger.prototype, level, {
        value(this: RequestLogger, ...args: LogArgs): void {
          const logger = this.logger;
          (logger[level] as unknown as (...a: LogArgs) => void).apply(logger, args);
        },
      });
    }
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
