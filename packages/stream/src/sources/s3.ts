// A NEAR Lake bucket as a block source: `<prefix><height:12>/block.json`, then `shard_<id>.json`
// for every shard the block lists. NEAR's own buckets are requester-pays, so requests say who pays.
// A height without objects is `null` when a later height exists (ListObjectsV2 with StartAfter),
// and not published yet otherwise.
import { StreamErrorCode, StreamSourceError } from '../errors.js';
import { lakeBlockKey, lakeHeightFolder, lakeShardKey, parseLakeFolder } from '../lake_layout.js';
import type { StreamerMessage } from '../message.js';
import { LazyS3Client, type S3Options } from '../s3_client.js';
import type { BlockSource } from '../source.js';
import { type DeadlineOptions, Deadlines } from './deadline.js';
import { type RetryOptions, withRetry } from './retry.js';
import { asBlockView, asShard, parseJsonText, shardIdsOf } from './validate.js';

export interface S3SourceOptions extends S3Options, RetryOptions, DeadlineOptions {
  /** Send `x-amz-request-payer: requester` (default true: NEAR's Lake buckets require it). */
  readonly requesterPays?: boolean;
}

const isNoSuchKey = (err: unknown) => {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
};

/** Lists at most this many pages per finalHeight() call, so one call stays short on a long bucket. */
const MAX_LIST_PAGES = 20;

export class S3Source implements BlockSource {
  readonly name: string;
  private readonly s3: LazyS3Client;
  private readonly payer: { RequestPayer?: 'requester' };
  private highest: number | null = null;
  private readonly deadlines: Deadlines;
  private readonly retry: RetryOptions;

  constructor(
    private readonly bucket: string,
    private readonly prefix: string,
    o: S3SourceOptions = {},
  ) {
    this.name = `s3://${bucket}/${prefix}`.replace(/\/$/, '');
    this.s3 = new LazyS3Client(o);
    this.payer = o.requesterPays === false ? {} : { RequestPayer: 'requester' };
    this.deadlines = new Deadlines(o);
    this.retry = { ...o, signal: this.deadlines.closed };
  }

  private async getText(key: string): Promise<string | null> {
    const { sdk, client } = await this.s3.get();
    return this.deadlines.run(`GET ${key}`, async (abortSignal) => {
      try {
        const res = await client.send(
          new sdk.GetObjectCommand({ Bucket: this.bucket, Key: `${this.prefix}${key}`, ...this.payer }),
          { abortSignal },
        );
        return (await res.Body?.transformToString('utf8')) ?? '';
      } catch (err) {
        if (isNoSuchKey(err)) return null;
        throw err;
      }
    });
  }

  /** Height folders after `startAfter` (exclusive), ascending, one page. */
  private async listAfter(startAfter: number | null, max: number): Promise<number[]> {
    const { sdk, client } = await this.s3.get();
    const list = new sdk.ListObjectsV2Command({
      Bucket: this.bucket,
      Prefix: this.prefix,
      Delimiter: '/',
      MaxKeys: max,
      ...(startAfter === null ? {} : { StartAfter: `${this.prefix}${lakeHeightFolder(startAfter)}/~` }),
      ...this.payer,
    });
    const res = await this.deadlines.run(`LIST after ${startAfter ?? 'the start'}`, (abortSignal) =>
      client.send(list, { abortSignal }),
    );
    return (res.CommonPrefixes ?? [])
      .map((p) => parseLakeFolder((p.Prefix ?? '').slice(this.prefix.length).replace(/\/$/, '')))
      .filter((h): h is number => h !== null);
  }

  fetchBlock(height: number): Promise<StreamerMessage | null> {
    return withRetry(this.name, height, this.retry, async () => {
      const blockKey = lakeBlockKey(height);
      const text = await this.getText(blockKey);
      if (text === null) {
        if ((await this.firstAfter(height)) !== null) return null;
        throw new StreamSourceError(StreamErrorCode.NOT_AVAILABLE, this.name, height, 'not published yet');
      }
      const block = asBlockView(parseJsonText(text, blockKey), height, blockKey);
      const shards = await Promise.all(
        shardIdsOf(block).map(async (shardId) => {
          const key = lakeShardKey(height, shardId);
          const shardText = await this.getText(key);
          if (shardText === null)
            throw new StreamSourceError(StreamErrorCode.BAD_RESPONSE, this.name, height, `${key} is missing`);
          return asShard(parseJsonText(shardText, key), shardId, key);
        }),
      );
      return { block, shards };
    });
  }

  /** The first listed height above `after`, or null. */
  private async firstAfter(after: number): Promise<number | null> {
    return (await this.listAfter(after, 1))[0] ?? null;
  }

  nextHeight(after: number): Promise<number | null> {
    return withRetry(this.name, after, this.retry, () => this.firstAfter(after));
  }

  finalHeight(): Promise<number | null> {
    return withRetry(this.name, null, this.retry, async () => {
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const found = await this.listAfter(this.highest, 1000);
        if (found.length === 0) break;
        this.highest = found.at(-1)!;
      }
      return this.highest;
    });
  }

  firstHeight(): Promise<number | null> {
    return withRetry(this.name, null, this.retry, async () => (await this.listAfter(null, 1))[0] ?? null);
  }

  async close(): Promise<void> {
    this.deadlines.close();
    await this.s3.close();
  }
}
