// What a node checks of its --upstream-rpc when it starts: that it serves the chain this node serves.
// Forwarded answers (validators, protocol config, global contract code by account, proofs) are taken
// as the upstream gives them, so an upstream of another network (a testnet RPC for a mainnet
// follower) would answer with another chain's data. One that does not answer yet is only warned of:
// it may come up later, and forwarded calls say so until it does.
import type { UpstreamRpc } from '@nearlite/follower';
import { isJsonObject } from '@nearlite/primitives';
import { ConfigError } from './config.js';
import type { Logger } from './log.js';

const CHECK_TIMEOUT_MS = 5_000;

export async function checkUpstream(upstream: UpstreamRpc, chainId: string, log: Logger): Promise<void> {
  const url = upstream.shown;
  let status: unknown;
  try {
    status = JSON.parse((await upstream.withTimeout(CHECK_TIMEOUT_MS).call('status', [])).json);
  } catch (err) {
    log.warn(
      `--upstream-rpc ${url} did not answer status (${(err as Error).message}); calls forwarded to it fail until it does`,
    );
    return;
  }
  const theirs = isJsonObject(status) ? status.chain_id : undefined;
  if (theirs !== chainId)
    throw new ConfigError(
      `--upstream-rpc ${url} serves chain ${JSON.stringify(theirs ?? null)}, and this node serves ${JSON.stringify(chainId)}: its answers would be another chain's`,
    );
}
