// Both histories side by side: a LevelDB HistoryStore and a PgHistory over real databases, each
// behind a FollowerBackend, answering through the real JSON-RPC dispatcher.
import type { Genesis } from '@nearlite/chain';
import { FollowerBackend, type HistoryReader } from '@nearlite/follower';
import { PgHistory, type ShardLayoutLike } from '@nearlite/history-pg';
import { dispatch } from '@nearlite/jsonrpc';
import { base58Encode, toBase64, utf8 } from '@nearlite/primitives';
import type { StreamerMessage } from '@nearlite/stream';
import pg from 'pg';
import { mainnetGenesis } from '../../../test/helpers/mainnet.js';
import { startPostgres, type TestPostgres } from '../../../test/helpers/postgres.js';

export { MAINNET_GENESIS, mainnetGenesis } from '../../../test/helpers/mainnet.js';

export function backendOver(history: HistoryReader, genesis: Genesis = mainnetGenesis()): FollowerBackend {
  return new FollowerBackend({
    history,
    genesis,
    runtimeConfigView: {},
    version: { version: 'test', build: 'test', commit: 'unknown', rustc_version: 'n/a' },
    rpcAddr: '127.0.0.1:0',
    nodePublicKey: 'ed25519:11111111111111111111111111111111',
    upstream: null,
    runView: async () => {
      throw new Error('no view runner in this test');
    },
    syncing: () => false,
  });
}

/** The stream's shards, with accounts spread over them by their first character. */
export function layoutOf(message: StreamerMessage): ShardLayoutLike {
  const shardIds = message.shards.map((s) => s.shard_id);
  return { shardIds, accountIdToShardId: (a) => shardIds[a.charCodeAt(0) % shardIds.length]! };
}

let dbCounter = 0;

/** A meta database and two shard databases; the layout's shards alternate between them. */
export async function pgDatabases(
  pg: TestPostgres,
  layout: ShardLayoutLike,
): Promise<{ metaUrl: string; shardUrls: Map<number, string> }> {
  const n = ++dbCounter;
  const metaUrl = await pg.createDatabase(`meta_${n}`);
  const a = await pg.createDatabase(`shard_a_${n}`);
  const b = await pg.createDatabase(`shard_b_${n}`);
  return { metaUrl, shardUrls: new Map(layout.shardIds.map((id, i) => [id, i % 2 === 0 ? a : b])) };
}

export function openPg(
  dbs: { metaUrl: string; shardUrls: Map<number, string> },
  layout: ShardLayoutLike,
  role: 'writer' | 'reader',
  more: {
    partitionSize?: number;
    gcGraceMs?: number;
    archive?: boolean;
    convertDbKind?: boolean;
    readDeadlineMs?: number;
    poolSize?: number;
  } = {},
): Promise<PgHistory> {
  return PgHistory.open({ ...dbs, shardLayout: layout, role, partitionSize: 1000, pollMs: 50, ...more });
}

export interface Answer {
  readonly status: number;
  readonly body: string;
}

export async function call(backend: FollowerBackend, method: string, params: unknown): Promise<Answer> {
  const res = await dispatch({ jsonrpc: '2.0', id: 1, method, params }, backend);
  if (method !== 'status') return res;
  // Uptime is the only field that depends on when the backend was made.
  const parsed = JSON.parse(res.body) as { result?: { uptime_sec?: number } };
  if (parsed.result) delete parsed.result.uptime_sec;
  return { status: res.status, body: JSON.stringify(parsed) };
}

/** A block whose only content is data updates (value) and removals (null) of app.near. */
export function dataBlock(
  height: number,
  writes: [number[], string | null][],
  /** The parent's height, when the block says (a first block whose parent is the genesis). */
  prevHeight?: number,
): StreamerMessage {
  const hash = new Uint8Array(32);
  new DataView(hash.buffer).setUint32(0, height);
  return {
    block: {
      header: {
        height,
        hash: base58Encode(hash),
        ...(prevHeight === undefined ? {} : { prev_height: prevHeight }),
      },
    },
    shards: [
      {
        shard_id: 0,
        chunk: null,
        receipt_execution_outcomes: [],
        state_changes: writes.map(([tail, value]) => ({
          cause: { type: 'transaction_processing', tx_hash: base58Encode(hash) },
          type: value === null ? 'data_deletion' : 'data_update',
          change: {
            account_id: 'app.near',
            key_base64: toBase64(Uint8Array.of(...tail)),
            ...(value === null ? {} : { value_base64: toBase64(utf8(value)) }),
          },
        })),
      },
    ],
  } as unknown as StreamerMessage;
}

/** A chain of one shard, every account on it. */
export const ONE_SHARD: ShardLayoutLike = { shardIds: [0], accountIdToShardId: () => 0 };

/**
 * A PostgreSQL server of the test's own with one database serving as meta and shard database, and a
 * client on it for the test's own queries; all stopped when the test ends.
 */
export async function oneDatabase(t: Tap.Test, name: string) {
  const server = await startPostgres();
  t.teardown(() => server.stop());
  const url = await server.createDatabase(name);
  const sql = new pg.Client({ connectionString: url });
  await sql.connect();
  t.teardown(() => sql.end());
  return { dbs: { metaUrl: url, shardUrls: new Map([[0, url]]) }, sql };
}
