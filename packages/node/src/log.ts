// The node's log: pino (fastify's own logger) writing structured JSON lines to stderr, one object per
// event with its level and time; in a terminal, the same events as plain readable lines. The RPC
// server logs through the same instance, so its errors carry fastify's request ids.
import pino, { type Logger as Pino } from 'pino';

export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  /** The pino instance behind it, handed to the RPC server. */
  readonly pino?: Pino;
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
      const o = JSON.parse(line) as { level: number; time: number; msg?: string; err?: { stack?: string } };
      const extra = o.err?.stack ? `\n${o.err.stack}` : '';
      process.stderr.write(
        `${new Date(o.time).toISOString()} ${names[o.level] ?? o.level} ${o.msg ?? ''}${extra}\n`,
      );
    },
  };
}

export function stderrLogger(quiet = false): Logger {
  const destination = process.stderr.isTTY ? pretty() : pino.destination({ fd: 2, sync: true });
  const log = pino({ level: quiet ? 'warn' : 'info', base: { pid: process.pid } }, destination);
  return {
    info: (m) => log.info(m),
    warn: (m) => log.warn(m),
    error: (m) => log.error(m),
    pino: log,
  };
}
