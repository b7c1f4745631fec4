// What a follower's requests need of a block's header, parsed from the stored block JSON once per
// block. Kept by height (a follower holds one block per height; the hash is checked on a hit): a
// miss parses the whole block view, so the cache holds many blocks' few facts rather than a handful.
import { bytesEqual, type CryptoHash } from '@nearlite/primitives';
import { LruCache } from '@nearlite/store';
import type { StoredBlock } from './history_reader.js';

/** What a request needs of a block's header, parsed once per block. */
export interface HeaderFacts {
  readonly height: number;
  readonly hash: CryptoHash;
  readonly timestamp: bigint;
  readonly prevStateRoot: string;
  readonly prevHash: string;
  /** The header's `prev_height`, where it has one. */
  readonly prevHeight: number | null;
  readonly epochId: string;
  readonly gasPrice: string;
  readonly nextBpHash: string;
  readonly protocolVersion: number;
  /** block_ordinal, where the view carries it (blocks since genesis). */
  readonly ordinal: number | undefined;
  readonly chunkHashes: ReadonlyMap<number, string>;
}

export class HeaderFactsCache {
  private readonly byHeight: LruCache<number, HeaderFacts>;

  /** `entries`: blocks whose facts are kept (a request path asks many; a head watcher one). */
  constructor(entries = 16_384) {
    this.byHeight = new LruCache<number, HeaderFacts>(entries);
  }

  of(b: StoredBlock): HeaderFacts {
    let f = this.byHeight.get(b.height);
    if (f && bytesEqual(f.hash, b.hash)) return f;
    const view = JSON.parse(b.json) as {
      header: Record<string, unknown>;
      chunks?: { shard_id: number; chunk_hash: string }[];
    };
    const h = view.header;
    f = {
      height: b.height,
      hash: b.hash,
      timestamp: BigInt(String(h.timestamp_nanosec ?? h.timestamp)),
      prevStateRoot: String(h.prev_state_root),
      prevHash: String(h.prev_hash),
      prevHeight: typeof h.prev_height === 'number' ? h.prev_height : null,
      epochId: String(h.epoch_id),
      gasPrice: String(h.gas_price),
      nextBpHash: String(h.next_bp_hash),
      protocolVersion: Number(h.latest_protocol_version),
      ordinal: typeof h.block_ordinal === 'number' ? h.block_ordinal : undefined,
      chunkHashes: new Map((view.chunks ?? []).map((c) => [c.shard_id, c.chunk_hash])),
    };
    this.byHeight.set(b.height, f);
    return f;
  }
}
