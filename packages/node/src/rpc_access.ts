// config.json's `rpc.api_keys` and `rpc.rate_limit` as the RPC server takes them: one reading for
// every server a home runs (a producer's, a follower's, a `serve` front end's), so none of them is
// left open where its config says it is not.
import type { AccessConfig } from '@nearlite/jsonrpc';
import type { NodeConfig } from './config.js';

export function accessFromConfig(c: NodeConfig): AccessConfig {
  return {
    apiKeys: c.apiKeys,
    ...(c.requestsPerSecond !== null ? { requestsPerSecond: c.requestsPerSecond } : {}),
    ...(c.concurrentViewCalls !== null ? { concurrentViewCalls: c.concurrentViewCalls } : {}),
    ...(c.viewGasPerSecond !== null ? { viewGasPerSecond: BigInt(Math.floor(c.viewGasPerSecond)) } : {}),
  };
}
