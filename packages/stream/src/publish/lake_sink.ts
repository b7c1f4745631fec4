// Where NEAR Lake files are written: a directory or an S3 bucket. A block's shard files are written
// before its block.json, so a reader that finds block.json finds every file it lists — and a writer
// stopped in between (killed) leaves a folder without one, which it writes again when it resumes:
// a Lake reader takes a listed folder's block.json for the block, and would find none there.
import { access, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { StreamErrorCode, StreamSourceError } from '../errors.js';
import { fileSpecDir } from '../file_spec.js';
import { lakeBlockKey, lakeShardKey, parseLakeFolder } from '../lake_layout.js';
import { LazyS3Client, parseS3Url, type S3Options } from '../s3_client.js';
import { S3Source } from '../sources/s3.js';
import type { BuiltStreamerMessage } from './streamer_message.js';

export interface LakeSink {
  readonly name: string;
  put(key: string, body: string): Promise<void>;
  /**
   * The height to resume from: right after the last block written whole, so a folder a stopped run
   * left without its block.json is written again; null when the sink holds no block.
   */
  resumeHeight(): Promise<number | null>;
  close(): Promise<void>;
}

export class DirLakeSink implements LakeSink {
  readonly name: string;
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
    this.name = this.dir;
  }

  async put(key: string, body: string): Promise<void> {
    const path = join(this.dir, key);
    await mkdir(dirname(path), { recursive: true });
    // Written aside and renamed, so a reader never sees half a file.
    const tmp = `${path}.${process.pid}.tmp`;
    await writeFile(tmp, body);
    await rename(tmp, path);
  }

  async resumeHeight(): Promise<number | null> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return null;
    }
    const heights = names.map(parseLakeFolder).filter((h): h is number => h !== null);
    heights.sort((a, b) => b - a);
    // From the top down, the folders without block.json are written again from the lowest of them.
    let partial: number | null = null;
    for (const h of heights) {
      if (await this.has(lakeBlockKey(h))) return partial ?? h + 1;
      partial = h;
    }
    return partial;
  }

  private async has(key: string): Promise<boolean> {
    try {
      await access(join(this.dir, key));
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {}
}

export class S3LakeSink implements LakeSink {
  readonly name: string;
  private readonly s3: LazyS3Client;

  constructor(
    private readonly bucket: string,
    private readonly prefix: string,
    private readonly o: S3Options,
  ) {
    this.name = `s3://${bucket}/${prefix}`.replace(/\/$/, '');
    this.s3 = new LazyS3Client(o);
  }

  async put(key: string, body: string): Promise<void> {
    const { sdk, client } = await this.s3.get();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.bucket,
        Key: `${this.prefix}${key}`,
        Body: body,
        ContentType: 'application/json',
      }),
    );
  }

  async resumeHeight(): Promise<number | null> {
    const source = new S3Source(this.bucket, this.prefix, { ...this.o, requesterPays: false });
    let top: number | null;
    try {
      for (;;) {
        const before = await source.finalHeight();
        top = await source.finalHeight();
        if (top === before) break;
      }
    } finally {
      await source.close();
    }
    if (top === null) return null;
    // Blocks are written one at a time, in order, and a partial one is written again before the next:
    // only the highest folder can lack its block.json.
    return (await this.has(lakeBlockKey(top))) ? top + 1 : top;
  }

  private async has(key: string): Promise<boolean> {
    const { sdk, client } = await this.s3.get();
    const res = await client.send(
      new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${this.prefix}${key}`, MaxKeys: 1 }),
    );
    return (res.Contents ?? []).some((o) => o.Key === `${this.prefix}${key}`);
  }

  async close(): Promise<void> {
    await this.s3.close();
  }
}

/** `s3://bucket[/prefix]` writes to S3 (with `s3` options), anything else is a directory. */
export function openLakeSink(target: string, s3: S3Options = {}): LakeSink {
  const url = parseS3Url(target);
  if (url) return new S3LakeSink(url.bucket, url.prefix, s3);
  // Anything else URL-shaped is a mistake, not a directory name (`s3://` alone made a folder `s3:`).
  const dir = fileSpecDir(target) ?? (/^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? '' : target);
  if (dir === '') {
    throw new StreamSourceError(
      StreamErrorCode.BAD_SPEC,
      target,
      null,
      'a Lake target is DIR, file:DIR or s3://bucket[/prefix]',
    );
  }
  return new DirLakeSink(dir);
}

/** Writes one block's Lake files: every shard first, block.json last. */
export async function writeLakeBlock(sink: LakeSink, m: BuiltStreamerMessage): Promise<void> {
  await Promise.all(m.shards.map((s) => sink.put(lakeShardKey(m.height, s.shardId), s.json)));
  await sink.put(lakeBlockKey(m.height), m.block);
}
