// The one place that builds an S3 client (`@aws-sdk/client-s3` is imported only in this package).
// Credentials come from the environment (AWS_ACCESS_KEY_ID, profiles, …) unless given. The SDK is
// loaded on first use: importing it costs about 0.4 s of CPU, which every node start paid before.
import type { S3Client } from '@aws-sdk/client-s3';

export type S3Sdk = typeof import('@aws-sdk/client-s3');

let sdk: Promise<S3Sdk> | null = null;

export function loadS3Sdk(): Promise<S3Sdk> {
  sdk ??= import('@aws-sdk/client-s3');
  return sdk;
}

export interface S3Options {
  /** A custom endpoint (MinIO, s3rver, …); path-style addressing is then used. */
  readonly endpoint?: string;
  /** Default `eu-central-1`, where NEAR's Lake buckets live. */
  readonly region?: string;
  readonly forcePathStyle?: boolean;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/** A client built on first use, with the SDK it came from (for the command classes). */
export class LazyS3Client {
  private loaded: Promise<{ sdk: S3Sdk; client: S3Client }> | null = null;

  constructor(private readonly o: S3Options) {}

  get(): Promise<{ sdk: S3Sdk; client: S3Client }> {
    this.loaded ??= loadS3Sdk().then((sdk) => ({ sdk, client: createS3Client(sdk, this.o) }));
    return this.loaded;
  }

  async close(): Promise<void> {
    if (this.loaded) (await this.loaded).client.destroy();
  }
}

function createS3Client(sdk: S3Sdk, o: S3Options): S3Client {
  return new sdk.S3Client({
    region: o.region ?? 'eu-central-1',
    ...(o.endpoint ? { endpoint: o.endpoint } : {}),
    forcePathStyle: o.forcePathStyle ?? o.endpoint !== undefined,
    ...(o.credentials ? { credentials: { ...o.credentials } } : {}),
    // Retries are this package's (reported, with backoff), not the SDK's silent ones.
    maxAttempts: 1,
  });
}

/** `s3://bucket[/prefix]` → bucket and key prefix (with its trailing slash). */
export function parseS3Url(url: string): { bucket: string; prefix: string } | null {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
  if (!m?.[1]) return null;
  const prefix = m[2] ? `${m[2].replace(/\/+$/, '')}/` : '';
  return { bucket: m[1], prefix };
}
