// `nearlite lake-export` and the sink behind `run --lake-out`: NEAR Lake files from this node's chain.
import { ChainReader } from '@nearlite/chain';
import { exportLake, type LakeSink, openLakeSink, type S3Options } from '@nearlite/stream';

export interface LakeTarget {
  /** A directory, or `s3://bucket[/prefix]`. */
  readonly target: string;
  readonly s3: S3Options;
}

export function lakeSink(t: LakeTarget): LakeSink {
  return openLakeSink(t.target, t.s3);
}

export async function lakeExport(
  home: string,
  target: LakeTarget,
  range: { from?: number; to?: number },
  log: (line: string) => void,
): Promise<void> {
  const reader = await ChainReader.open(home);
  const sink = lakeSink(target);
  try {
    const r = await exportLake(reader, sink, range);
    log(`wrote ${r.blocks} blocks (heights ${r.from}..${r.to}) to ${sink.name}`);
  } finally {
    await sink.close();
    await reader.close();
  }
}
