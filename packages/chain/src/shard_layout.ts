// nearcore's shard layouts: V0 (hash of the account id modulo the shard count) and the account-range
// layouts V1/V2, where shard i holds the accounts in [boundary[i-1], boundary[i]) by byte order.
import { sha256 } from '@nearlite/primitives';

export interface ShardLayout {
  readonly shardIds: readonly number[];
  accountIdToShardId(accountId: string): number;
  /** The JSON form served in genesis and protocol configs. */
  readonly view: unknown;
}

function rangeLayout(boundaries: readonly string[], shardIds: readonly number[], view: unknown): ShardLayout {
  return {
    shardIds,
    view,
    accountIdToShardId(accountId: string): number {
      let i = 0;
      while (i < boundaries.length && accountId >= boundaries[i]!) i++;
      return shardIds[i]!;
    },
  };
}

export function shardLayoutFromView(view: unknown): ShardLayout {
  const v = view as {
    V0?: { num_shards: number };
    V1?: { boundary_accounts: string[] };
    V2?: { boundary_accounts: string[]; shard_ids: number[] };
  };
  if (v.V0) {
    const n = v.V0.num_shards;
    const ids = Array.from({ length: n }, (_, i) => i);
    return {
      shardIds: ids,
      view,
      accountIdToShardId(accountId: string): number {
        const h = sha256(new TextEncoder().encode(accountId));
        const x = new DataView(h.buffer, h.byteOffset).getBigUint64(0, true);
        return Number(x % BigInt(n));
      },
    };
  }
  if (v.V2) return rangeLayout(v.V2.boundary_accounts, v.V2.shard_ids, view);
  if (v.V1) {
    const ids = Array.from({ length: v.V1.boundary_accounts.length + 1 }, (_, i) => i);
    return rangeLayout(v.V1.boundary_accounts, ids, view);
  }
  throw new TypeError('unsupported shard layout');
}

/**
 * An account-range layout of `n` shards. The boundaries split the first letter of account ids evenly
 * across the alphabet, so named accounts spread over shards (nearcore's test layout puts every
 * `*.near` account in shard 0).
 */
export function defaultShardLayoutView(n: number): unknown {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const boundary_accounts = Array.from(
    { length: n - 1 },
    (_, i) => `${letters[Math.floor((26 * (i + 1)) / n)]}0`,
  );
  const shard_ids = Array.from({ length: n }, (_, i) => i);
  const map = Object.fromEntries(shard_ids.map((id) => [String(id), id]));
  return {
    V2: {
      boundary_accounts,
      shard_ids,
      id_to_index_map: map,
      index_to_id_map: map,
      shards_split_map: null,
      shards_parent_map: null,
      version: 0,
    },
  };
}
