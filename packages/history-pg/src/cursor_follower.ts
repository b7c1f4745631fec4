// How a reader keeps up with the writer: the writer's NOTIFY on each cursor move, and a poll as a
// fallback. A listening session that ends (the server restarted) is opened again; one that cannot be
// opened for good (a hot standby refuses LISTEN) leaves the poll alone to do it.
import type pg from 'pg';
import { pgDriver } from './pools.js';

/** The channel the writer notifies on each cursor move. */
export const CURSOR_CHANNEL = 'nearlite_cursor';
/** How often a reader whose listening session ended tries to open one again. */
const RELISTEN_MS = 5000;

export class CursorFollower {
  private timer: NodeJS.Timeout | null = null;
  private listener: pg.Client | null = null;
  private listening = false;
  private listenRefused = false;
  private nextListenAt = 0;
  private closed = false;

  private constructor(
    private readonly metaUrl: string,
    private readonly pollMs: number,
    /** Re-reads the cursor: on each notification, each poll, and once a session listens again. */
    private readonly refresh: () => Promise<void>,
  ) {}

  private readonly onMove = (): void => {
    this.refresh().catch(() => {});
  };

  static async start(metaUrl: string, pollMs: number, refresh: () => Promise<void>): Promise<CursorFollower> {
    const f = new CursorFollower(metaUrl, pollMs, refresh);
    await f.listen();
    f.timer = setInterval(() => {
      f.onMove();
      if (f.listener !== null || f.listening || f.listenRefused) return;
      if (Date.now() < f.nextListenAt) return;
      f.nextListenAt = Date.now() + RELISTEN_MS;
      f.listening = true;
      f.listen().finally(() => {
        f.listening = false;
      });
    }, f.pollMs);
    f.timer.unref();
    return f;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.listener?.end().catch(() => {});
  }

  private async listen(): Promise<void> {
    const { Client } = await pgDriver();
    const client = new Client({ connectionString: this.metaUrl });
    const lost = () => {
      if (this.listener === client) this.listener = null;
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', this.onMove);
    try {
      await client.connect();
      await client.query(`LISTEN ${CURSOR_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => {});
      // A hot standby refuses LISTEN for as long as it is one (read_only_sql_transaction): the poll
      // alone keeps up, rather than a session opened and refused every few seconds.
      if ((err as { code?: unknown }).code === '25006') this.listenRefused = true;
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.listener = client;
    // Moves made while no session listened.
    this.onMove();
  }
}
