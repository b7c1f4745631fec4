// nearcore's status line (chain/client/src/info.rs, InfoHelper::info): every `log_summary_period`
// (10 s unless config.json says otherwise) a line at INFO under the target "stats" says where the
// node stands, so an operator tailing the log sees it make progress: the head, whether it is a
// validator and how many the epoch has, its peers and traffic (none here: a node has no network),
// the blocks and gas a second since the last line, and the process's CPU and memory.
import type { Logger } from './log.js';

/** nearcore's PrettyNumber: below 1,000 as it is, above with an SI prefix and three digits. */
export function prettyNumber(n: number, unit: string): string {
  let num = Math.max(0, Math.floor(n));
  if (num < 1_000) return `${num} ${unit}`;
  for (const prefix of 'kMGTPE') {
    if (num < 1_000_000) {
      const precision = num < 10_000 ? 2 : num < 100_000 ? 1 : 0;
      return `${(num / 1_000).toFixed(precision)} ${prefix}${unit}`;
    }
    num = Math.floor(num / 1000);
  }
  return `${num} E${unit}`;
}

export interface StatsLine {
  readonly height: number;
  readonly hash: string;
  /** Null where the node does not know its epoch's validators (a follower), or is syncing. */
  readonly validators: { readonly isValidator: boolean; readonly count: number } | null;
  /**
   * While the node catches up (nearcore's BodySync): the height the catch-up began at and the one
   * it heads for; null in sync.
   */
  readonly sync?: { readonly startHeight: number; readonly highestHeight: number } | null;
  readonly blocks: number;
  readonly gasUsed: bigint;
  readonly elapsedMs: number;
  /** Percent of one core, as nearcore's sysinfo gives it. */
  readonly cpuPercent: number;
  readonly memoryBytes: number;
}

const plural = (n: number) => (n === 1 ? '' : 's');

/** nearcore's display of BodySync: how far the catch-up is, as a share of the heights it set out to cover. */
function downloading(height: number, sync: NonNullable<StatsLine['sync']>): string {
  const { startHeight, highestHeight } = sync;
  const percent =
    highestHeight <= startHeight ? 0 : ((height - startHeight) * 100) / (highestHeight - startHeight);
  return `Downloading blocks ${percent.toFixed(2)}% (${Math.max(0, highestHeight - height)} left; at ${height})`;
}

/** The line as nearcore's plain log summary style writes it. */
export function formatStatsLine(s: StatsLine): string {
  const seconds = s.elapsedMs / 1000;
  const bps = seconds > 0 ? s.blocks / seconds : 0;
  const gasPerSec = seconds > 0 ? Number(s.gasUsed) / seconds : 0;
  const validators = s.validators
    ? ` ${s.validators.isValidator ? 'Validator | ' : ''}${s.validators.count} validator${plural(s.validators.count)}`
    : '';
  return (
    `#${String(s.height).padStart(8)} ${s.sync ? downloading(s.height, s.sync) : s.hash.padStart(44)}${validators}` +
    ` 0 peers ⬇ ${prettyNumber(0, 'B/s')} ⬆ ${prettyNumber(0, 'B/s')}` +
    ` ${bps.toFixed(2)} bps ${prettyNumber(gasPerSec, 'gas/s')}` +
    ` CPU: ${s.cpuPercent.toFixed(0)}%, Mem: ${prettyNumber(s.memoryBytes, 'B')}`
  );
}

/** Where a node's status line goes: the log's `stats` target, or its info lines where it has none. */
export function statsWriter(logger: Logger): (line: string) => void {
  return logger.stats ?? ((line) => logger.info(`stats: ${line}`));
}

export interface StatsSource {
  head(): { readonly height: number; readonly hash: string } | null;
  validators(): StatsLine['validators'];
  /** Where a catch-up stands, for a node that catches up (a follower). */
  sync?(): StatsLine['sync'];
}

/** Counts the blocks processed and logs the line every period until stopped. */
export class StatsLog {
  private blocks = 0;
  private gasUsed = 0n;
  private since = Date.now();
  private cpu = process.cpuUsage();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly source: StatsSource,
    private readonly log: (line: string) => void,
    periodMs: number,
  ) {
    this.timer = setInterval(() => this.logNow(), periodMs);
    this.timer.unref();
  }

  blockProcessed(gasUsed: bigint): void {
    this.blocks++;
    this.gasUsed += gasUsed;
  }

  /** Logs the line for the blocks since the last one, and starts counting again. */
  logNow(): void {
    const head = this.source.head();
    const now = Date.now();
    const cpu = process.cpuUsage(this.cpu);
    const elapsedMs = now - this.since;
    if (head)
      this.log(
        formatStatsLine({
          ...head,
          validators: this.source.validators(),
          sync: this.source.sync?.() ?? null,
          blocks: this.blocks,
          gasUsed: this.gasUsed,
          elapsedMs,
          cpuPercent: elapsedMs > 0 ? ((cpu.user + cpu.system) / 1000 / elapsedMs) * 100 : 0,
          memoryBytes: process.memoryUsage.rss(),
        }),
      );
    this.blocks = 0;
    this.gasUsed = 0n;
    this.since = now;
    this.cpu = process.cpuUsage();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
