// `nearlite lake-export` and the sink behind `run --lake-out`: NEAR Lake files from this node's chain.
import { checkChain, heightRanges } from '@nearlite/chain';
import { exportLake, LakeExportError, type LakeSink, openLakeSink, type S3Options } from '@nearlite/stream';
import { openHomeReader } from './home.js';

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
  const reader = await openHomeReader(home);
  // A hole would be published as heights the chain skipped, which readers of the Lake cannot tell
  // apart: a damaged store is refused, as a node refuses to run on it.
  const report = checkChain(reader.store, reader.layout.shardIds, { window: Number.POSITIVE_INFINITY });
  if (report.problems.length > 0) {
    await reader.close();
    throw new LakeExportError(
      `the store is damaged at ${heightRanges(report.problems.map((p) => p.height))} (first: #${report.problems[0]!.height} ${report.problems[0]!.what}); ` +
        `\`nearlite repair --home ${home}\` rolls it back to its last whole block before an export`,
    );
  }
  const sink = lakeSink(target);
  try {
    const r = await exportLake(reader, sink, range);
    log(`wrote ${r.blocks} blocks (heights ${r.from}..${r.to}) to ${sink.name}`);
  } finally {
    await sink.close();
    await reader.close();
  }
}
