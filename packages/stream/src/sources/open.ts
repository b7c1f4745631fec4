// `openSource(spec)`: `http(s)://BASE` (neardata-style), `s3://bucket[/prefix]` (NEAR Lake) or
// `file:DIR` (the Lake layout on disk).
import { StreamErrorCode, StreamSourceError } from '../errors.js';
import { fileSpecDir } from '../file_spec.js';
import { parseS3Url } from '../s3_client.js';
import type { BlockSource } from '../source.js';
import { FileSource } from './file.js';
import { HttpSource, type HttpSourceOptions } from './http.js';
import type { RetryOptions } from './retry.js';
import { S3Source, type S3SourceOptions } from './s3.js';

export type OpenSourceOptions = RetryOptions & HttpSourceOptions & S3SourceOptions;

/** A source as `openSource` was asked for it, minus callbacks: what a worker thread needs to open it. */
export interface SourceSpec {
  readonly spec: string;
  readonly options: Omit<OpenSourceOptions, 'onRetry'>;
}

export function openSource(spec: string, options: OpenSourceOptions = {}): BlockSource {
  const { onRetry, ...plain } = options;
  const reopen: SourceSpec = { spec, options: plain };
  const opened = openSourceOf(spec, options);
  // The callback stays with the source: the threads that open their own copies report their
  // failed attempts back to it.
  return opened ? Object.assign(opened, { reopen, ...(onRetry ? { onRetry } : {}) }) : badSpec(spec);
}

function openSourceOf(spec: string, options: OpenSourceOptions): BlockSource | null {
  if (/^https?:\/\//.test(spec)) return URL.canParse(spec) ? new HttpSource(spec, options) : null;
  if (spec.startsWith('s3://')) {
    const s3 = parseS3Url(spec);
    if (s3) return new S3Source(s3.bucket, s3.prefix, options);
  }
  const dir = fileSpecDir(spec);
  return dir ? new FileSource(dir, options) : null;
}

function badSpec(spec: string): never {
  throw new StreamSourceError(
    StreamErrorCode.BAD_SPEC,
    spec,
    null,
    'a block source is http(s)://BASE, s3://bucket[/prefix] or file:DIR',
  );
}
