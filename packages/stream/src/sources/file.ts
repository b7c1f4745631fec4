// The NEAR Lake layout in a directory (what `nearlite lake-export --out DIR` writes) as a source.
import { readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { StreamErrorCode, StreamSourceError } from '../errors.js';
import { lakeBlockKey, lakeShardKey, parseLakeFolder } from '../lake_layout.js';
import type { StreamerMessage } from '../message.js';
import type { BlockSource } from '../source.js';
import { type RetryOptions, withRetry } from './retry.js';
import { asBlockView, asShard, parseJsonText, shardIdsOf } from './validate.js';

const isMissing = (err: unknown) => (err as { code?: string } | null)?.code === 'ENOENT';

// A block is a handful of small local files: one synchronous read each costs a fifth of the
// promise API's open, stat, read and close round trips through the thread pool, and catch-up
// reads thousands of them.
const readText = (path: string) => readFileSync(path, 'utf8');

export class FileSource implements BlockSource {
  readonly name: string;
  private readonly dir: string;

  constructor(dir: string, o: RetryOptions = {}) {
    this.dir = resolve(dir);
    this.name = `file:${this.dir}`;
    this.retry = { ...o, signal: this.closing.signal };
  }

  private readonly closing = new AbortController();
  private readonly retry: RetryOptions;

  /** The last listing of the directory, and the directory's modification time when it was made. */
  private listing: {
    readonly mtimeMs: number;
    readonly listedAt: number;
    readonly heights: number[];
  } | null = null;

  /**
   * The published heights, ascending. A follower at the head asks every second; listing a long
   * chain's directory (one folder per height) each time cost it several per cent of a core, so a
   * listing is kept while the directory's modification time, which moves whenever a folder is added
   * or removed, stays the same. A listing made within a second of that time is not trusted (a coarse
   * clock could give a later change the same time).
   */
  private async heights(): Promise<number[]> {
    let names: string[];
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(this.dir)).mtimeMs;
      const kept = this.listing;
      if (kept !== null && kept.mtimeMs === mtimeMs && kept.listedAt - mtimeMs >= 1000) return kept.heights;
      const listedAt = Date.now();
      names = await readdir(this.dir);
      const heights = names
        .map(parseLakeFolder)
        .filter((h): h is number => h !== null)
        .sort((a, b) => a - b);
      this.listing = { mtimeMs, listedAt, heights };
      return heights;
    } catch (err) {
      if (isMissing(err)) return [];
      throw err;
    }
  }

  fetchBlock(height: number): Promise<StreamerMessage | null> {
    return withRetry(this.name, height, this.retry, async () => {
      let text: string;
      try {
        text = readText(join(this.dir, lakeBlockKey(height)));
      } catch (err) {
        if (!isMissing(err)) throw err;
        // Absent: a skipped height when a later one exists, otherwise not published yet.
        if ((await this.nextHeight(height)) !== null) return null;
        throw new StreamSourceError(StreamErrorCode.NOT_AVAILABLE, this.name, height, 'not published yet');
      }
      const block = asBlockView(parseJsonText(text, lakeBlockKey(height)), height, lakeBlockKey(height));
      const shards = [];
      for (const shardId of shardIdsOf(block)) {
        const key = lakeShardKey(height, shardId);
        let shardText: string;
        try {
          shardText = readText(join(this.dir, key));
        } catch (err) {
          if (!isMissing(err)) throw err;
          throw new StreamSourceError(StreamErrorCode.BAD_RESPONSE, this.name, height, `${key} is missing`);
        }
        shards.push(asShard(parseJsonText(shardText, key), shardId, key));
      }
      return { block, shards };
    });
  }

  async nextHeight(after: number): Promise<number | null> {
    const heights = await this.heights();
    // The first listed height above `after`: the listing is ascending.
    let lo = 0;
    let hi = heights.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (heights[mid]! > after) hi = mid;
      else lo = mid + 1;
    }
    return heights[lo] ?? null;
  }

  async finalHeight(): Promise<number | null> {
    return (await this.heights()).at(-1) ?? null;
  }

  async firstHeight(): Promise<number | null> {
    return (await this.heights())[0] ?? null;
  }

  async close(): Promise<void> {
    this.closing.abort(new Error('the source is closed'));
  }
}
