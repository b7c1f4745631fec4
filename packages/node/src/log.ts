export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export function stderrLogger(quiet = false): Logger {
  const line = (level: string, msg: string) =>
    process.stderr.write(`${new Date().toISOString()} ${level} ${msg}\n`);
  return {
    info: (m) => {
      if (!quiet) line('INFO', m);
    },
    warn: (m) => line('WARN', m),
    error: (m) => line('ERROR', m),
  };
}
