// The NEAR Lake layout in a directory: `<height padded to 12 digits>/block.json` and
// `shard_<id>.json` per block, as near-lake writes them to S3. A height with no directory below the
// highest one present has no block.
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StreamerMessage } from '../message.js';
import { parseStreamerMessage } from '../normalize.js';
import type { BlockSource } from '../source.js';

export function lakeDirName(height: number): string {
  return String(height).padStart(12, '0');
}

export class FileSource implements BlockSource {
  readonly name: string;

  constructor(readonly dir: string) {
    this.name = `file:${dir}`;
  }

  private heights(): number[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((d) => /^\d{12}$/.test(d) && existsSync(join(this.dir, d, 'block.json')))
      .map(Number)
      .sort((a, b) => a - b);
  }

  async fetchBlock(height: number): Promise<StreamerMessage | null> {
    const at = join(this.dir, lakeDirName(height));
    if (!existsSync(join(at, 'block.json'))) return null;
    const block = await readFile(join(at, 'block.json'), 'utf8');
    const shardFiles = readdirSync(at)
      .map((f) => /^shard_(\d+)\.json$/.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .sort((a, b) => Number(a[1]) - Number(b[1]));
    const shards = await Promise.all(shardFiles.map((m) => readFile(join(at, m[0]), 'utf8')));
    return parseStreamerMessage(`{"block":${block},"shards":[${shards.join(',')}]}`);
  }

  async finalHeight(): Promise<number | null> {
    return this.heights().at(-1) ?? null;
  }

  async firstHeight(): Promise<number | null> {
    return this.heights()[0] ?? null;
  }

  async close(): Promise<void> {}
}
