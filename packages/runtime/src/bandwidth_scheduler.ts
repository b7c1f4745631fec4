// nearcore's bandwidth scheduler state (runtime/runtime/src/bandwidth_scheduler): every chunk, new or
// missing, runs the scheduler and writes its state to TrieKey::BandwidthSchedulerState, so the state
// is part of every shard's root from its first chunk on. A link's allowance grows by its fair share
// of max_shard_bandwidth each height (up to max_allowance) and shrinks by what is granted on it; the
// sanity-check hash chains the shard layout height after height.
//
// Grants beyond the base bandwidth answer bandwidth requests, which a shard makes for more than the
// base bandwidth of receipts in its outgoing buffer to another. This chain's buffers
// (`receipt_sink.ts`) make no requests, so only the base grants move the allowances; the
// distribution of what remains changes grants, never allowances. That is the scheduler as nearcore
// runs it with no requests.
import { BorshReader, BorshWriter, type CryptoHash, sha256 } from '@nearlite/primitives';
import { type TrieUpdate, trieKeyBandwidthSchedulerState } from '@nearlite/trie';
import type { BandwidthSchedulerConfig, CongestionControlConfig } from './config/runtime_config.js';
import { type CongestionInfo, congestionLevel } from './congestion_control.js';

/** One shard's chunk at this height as the scheduler sees it (nearcore's ExtendedCongestionInfo). */
export interface ShardCongestion {
  readonly congestionInfo: CongestionInfo;
  readonly missedChunksCount: number;
}

interface LinkAllowance {
  readonly sender: number;
  readonly receiver: number;
  readonly allowance: number;
}

interface SchedulerState {
  readonly linkAllowances: readonly LinkAllowance[];
  readonly sanityCheckHash: CryptoHash;
}

/** BandwidthSchedulerState::V1, the only version. */
const STATE_V1 = 0;

export function encodeBandwidthSchedulerState(s: SchedulerState): Uint8Array {
  const w = new BorshWriter(37 + 24 * s.linkAllowances.length).u8(STATE_V1);
  w.vec(s.linkAllowances, (w, l) => w.u64(l.sender).u64(l.receiver).u64(l.allowance));
  return w.fixed(s.sanityCheckHash).toBytes();
}

export function decodeBandwidthSchedulerState(bytes: Uint8Array): SchedulerState {
  const r = new BorshReader(bytes);
  const version = r.u8();
  if (version !== STATE_V1) throw new Error(`unknown BandwidthSchedulerState version ${version}`);
  const linkAllowances = r.vec((r) => ({
    sender: Number(r.u64()),
    receiver: Number(r.u64()),
    allowance: Number(r.u64()),
  }));
  const sanityCheckHash = r.fixed(32).slice();
  r.end();
  return { linkAllowances, sanityCheckHash };
}

/**
 * BandwidthSchedulerParams::calculate: the base bandwidth leaves room for one max_single_grant on
 * top of the base on every other link.
 */
export function baseBandwidth(c: BandwidthSchedulerConfig, numShards: number): number {
  const available = c.maxShardBandwidth - c.maxSingleGrant;
  return Math.min(Math.floor(available / Math.max(1, numShards - 1)), c.maxBaseBandwidth);
}

/**
 * run_bandwidth_scheduler for a chunk of a shard whose state is `state`: reads the scheduler's state
 * (empty before the shard's first chunk), moves the allowances and the sanity-check hash, and writes
 * it back with its own state change. `shards` holds the chunks of this block by shard id.
 */
export function runBandwidthScheduler(
  state: TrieUpdate,
  shardIds: readonly number[],
  shards: ReadonlyMap<number, ShardCongestion>,
  config: BandwidthSchedulerConfig,
  congestionControl: CongestionControlConfig,
): void {
  const key = trieKeyBandwidthSchedulerState();
  const raw = state.get(key);
  const prev: SchedulerState = raw
    ? decodeBandwidthSchedulerState(raw)
    : { linkAllowances: [], sanityCheckHash: new Uint8Array(32) };
  const n = shardIds.length;
  const indexOf = new Map(shardIds.map((id, i) => [id, i]));
  // Allowances by link index (sender * n + receiver); links of shards no longer in the layout drop.
  const allowances: number[] = new Array(n * n).fill(0);
  for (const l of prev.linkAllowances) {
    const s = indexOf.get(l.sender);
    const r = indexOf.get(l.receiver);
    if (s !== undefined && r !== undefined) allowances[s * n + r] = l.allowance;
  }
  const status = shardIds.map((id) => {
    const c = shards.get(id);
    if (!c) return undefined;
    return {
      lastChunkMissing: c.missedChunksCount > 0,
      allowedSender: indexOf.get(c.congestionInfo.allowedShard),
      fullyCongested: congestionLevel(c.congestionInfo, c.missedChunksCount, congestionControl) === 1,
    };
  });
  const linkAllowed = (sender: number, receiver: number): boolean => {
    const to = status[receiver];
    if (!to || to.lastChunkMissing) return false;
    if (status[sender]?.lastChunkMissing) return false;
    return !to.fullyCongested || to.allowedSender === sender;
  };
  // increase_allowances, then grant_base_bandwidth, link by link in (sender, receiver) order.
  const fair = Math.floor(config.maxShardBandwidth / n);
  for (let i = 0; i < n * n; i++) allowances[i] = Math.min(allowances[i]! + fair, config.maxAllowance);
  const base = baseBandwidth(config, n);
  const senderBudget: number[] = new Array(n).fill(config.maxShardBandwidth);
  const receiverBudget: number[] = new Array(n).fill(config.maxShardBandwidth);
  for (let s = 0; s < n; s++) {
    for (let r = 0; r < n; r++) {
      if (!linkAllowed(s, r) || senderBudget[s]! < base || receiverBudget[r]! < base) continue;
      senderBudget[s]! -= base;
      receiverBudget[r]! -= base;
      allowances[s * n + r] = Math.max(0, allowances[s * n + r]! - base);
    }
  }
  const linkAllowances: LinkAllowance[] = [];
  for (let s = 0; s < n; s++) {
    for (let r = 0; r < n; r++) {
      linkAllowances.push({
        sender: shardIds[s]!,
        receiver: shardIds[r]!,
        allowance: allowances[s * n + r]!,
      });
    }
  }
  const layout = new BorshWriter(4 + 8 * n).vec(shardIds, (w, id) => w.u64(id)).toBytes();
  const chained = new Uint8Array(64);
  chained.set(prev.sanityCheckHash);
  chained.set(sha256(layout), 32);
  state.set(key, encodeBandwidthSchedulerState({ linkAllowances, sanityCheckHash: sha256(chained) }));
  state.commit({ type: 'bandwidth_scheduler_state_update' });
}
