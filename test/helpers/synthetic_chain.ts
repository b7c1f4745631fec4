// A long verifiable chain for follower tests, built from the real sandbox block 879765 (header V3):
// each copy gets its own height, links to the one before, and carries a recomputed hash, so it
// passes every check a follower makes. Heights listed in `skip` get no block (skipped heights).
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { base58Encode, stringifyJson } from '@nearlite/primitives';
import {
  chunkHeadersRoot,
  computeHeaderHash,
  HeaderLayout,
  lakeHeightFolder,
  type StreamerMessage,
} from '@nearlite/stream';
import { MAINNET_GENESIS_HASH, MAINNET_GENESIS_HEIGHT } from './mainnet.js';
import { freshMessage } from './stream_fixtures.js';

export function syntheticChain(
  count: number,
  opts: {
    skip?: readonly number[];
    from?: number;
    /**
     * The genesis height the first block follows (its `prev_height`, the heights between skipped): a
     * follower of the chain then holds its whole state. Otherwise the height below the first block,
     * and the state is held from the first block on.
     */
    afterGenesis?: number;
    /**
     * The hash of that genesis block, the first block's `prev_hash`: by default mainnet's for mainnet's
     * genesis height (a follower on mainnet's genesis.json checks it), else a made-up one.
     */
    genesisHash?: string;
    protocolVersion?: number;
    /** The protocol version each height's block names (over `protocolVersion`). */
    versionAt?: (height: number) => number;
    /** The epoch id each height's block names (by default the copied block's, for every height). */
    epochAt?: (height: number) => string;
  } = {},
): StreamerMessage[] {
  const skip = new Set(opts.skip ?? []);
  const out: StreamerMessage[] = [];
  let height = opts.from ?? 1_000_000;
  let prevHash =
    opts.genesisHash ??
    (opts.afterGenesis === MAINNET_GENESIS_HEIGHT
      ? MAINNET_GENESIS_HASH
      : base58Encode(new Uint8Array(32).fill(1)));
  let prevHeight = opts.afterGenesis ?? height - 1;
  while (out.length < count) {
    if (skip.has(height)) {
      height++;
      continue;
    }
    const m = freshMessage('sandbox-879765');
    const h = m.block.header;
    h.height = height;
    h.prev_height = prevHeight;
    h.prev_hash = prevHash;
    h.block_ordinal = out.length + 1;
    if (opts.protocolVersion !== undefined) h.latest_protocol_version = opts.protocolVersion;
    if (opts.versionAt) h.latest_protocol_version = opts.versionAt(height);
    if (opts.epochAt) h.epoch_id = opts.epochAt(height);
    for (const c of m.block.chunks) c.height_included = height;
    // The header commits to its chunks' heights too.
    h.chunk_headers_root = base58Encode(chunkHeadersRoot(m.block.chunks as never));
    h.hash = base58Encode(computeHeaderHash(h, HeaderLayout.V3));
    for (const s of m.shards) {
      if (s.chunk) s.chunk.header.height_included = height;
      for (const t of s.chunk?.transactions ?? []) t.outcome.execution_outcome.block_hash = h.hash;
      for (const r of s.receipt_execution_outcomes) r.execution_outcome.block_hash = h.hash;
    }
    out.push(m);
    prevHash = h.hash;
    prevHeight = height;
    height++;
  }
  return out;
}

/** Writes messages in the NEAR Lake layout (`<height>/block.json`, `shard_N.json`). */
export function writeLake(dir: string, messages: readonly StreamerMessage[]): void {
  for (const m of messages) {
    const at = join(dir, lakeHeightFolder(m.block.header.height));
    mkdirSync(at, { recursive: true });
    writeFileSync(join(at, 'block.json'), stringifyJson(m.block));
    for (const s of m.shards) writeFileSync(join(at, `shard_${s.shard_id}.json`), stringifyJson(s));
  }
}

/**
 * A Lake folder `lake` that grows as blocks are published: each is written under `staging` and moved
 * in a folder at a time, so a source reading `lake` never sees half a block.
 */
export function lakePublisher(lake: string, staging: string): (ms: readonly StreamerMessage[]) => void {
  mkdirSync(lake, { recursive: true });
  return (ms) => {
    writeLake(staging, ms);
    for (const m of ms) {
      const name = lakeHeightFolder(m.block.header.height);
      renameSync(join(staging, name), join(lake, name));
    }
  };
}
