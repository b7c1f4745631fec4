// The one place that builds an S3 client (`@aws-sdk/client-s3` is imported only in this package).
// Credentials come from the environment (AWS_ACCESS_KEY_ID, profiles, …) unless given.
import { S3Client } from '@aws-sdk/client-s3';

export interface S3Options {
  /** A custom endpoint (MinIO, s3rver, …); path-style addressing is then used. */
  readonly endpoint?: string;
  /** Default `eu-central-1`, where NEAR's Lake buckets live. */
  readonly region?: string;
  readonly forcePathStyle?: boolean;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

export function createS3Client(o: S3Options): S3Client {
  return new S3Client({
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
