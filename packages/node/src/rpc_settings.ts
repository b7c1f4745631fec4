// config.json's `rpc` section as the RPC server takes it (body limit, API keys and rate limits, CORS
// origins, the metrics listener, the connection cap the open-file limit leaves): one reading for every server a home runs (a producer's, a
// follower's, a `serve` front end's), so none of them is left open where its config says it is not.
import type { RpcServerOptions } from '@nearlite/jsonrpc';
import { type NodeConfig, parseHostPort } from './config.js';
import { connectionCap } from './open_files.js';

export function rpcSettings(
  c: NodeConfig,
  warn: (msg: string) => void,
  /** Whether the process keeps a LevelDB, whose tables the connection cap leaves free. */
  leveldb: boolean,
): Pick<
  RpcServerOptions,
  'bodyLimit' | 'access' | 'corsAllowedOrigins' | 'metricsListen' | 'maxConnections'
> {
  const cap = connectionCap(leveldb);
  if (cap.warning) warn(cap.warning);
  return {
    ...(cap.maxConnections !== undefined ? { maxConnections: cap.maxConnections } : {}),
    bodyLimit: c.jsonPayloadMaxSize,
    access: {
      apiKeys: c.apiKeys,
      ...(c.requestsPerSecond !== null ? { requestsPerSecond: c.requestsPerSecond } : {}),
      ...(c.concurrentViewCalls !== null ? { concurrentViewCalls: c.concurrentViewCalls } : {}),
      ...(c.viewGasPerSecond !== null ? { viewGasPerSecond: BigInt(Math.floor(c.viewGasPerSecond)) } : {}),
    },
    corsAllowedOrigins: c.corsAllowedOrigins,
    ...(c.prometheusAddr !== null ? { metricsListen: parseHostPort(c.prometheusAddr) } : {}),
  };
}
