// nearcore's `run` flags over config.json's RPC settings, on whatever RPC a home serves: a producer's,
// a follower's or a front end's.
import { ConfigError, type NodeConfig, sameListenAddr } from './config.js';

export interface RpcFlags {
  readonly rpcAddr?: string;
  /** `--rpc-prometheus-addr` (config.json's `rpc.prometheus_addr`). */
  readonly prometheusAddr?: string;
  /** `--max-gas-burnt-view` (config.json's `max_gas_burnt_view`). */
  readonly maxGasBurntView?: bigint;
}

/**
 * The config with the flags given over it. The metrics listener needs an address of its own, whether
 * the flags or the file put it on the RPC's (the file alone is checked as it is read).
 */
export function withRpcFlags(config: NodeConfig, flags: RpcFlags): NodeConfig {
  const out: NodeConfig = {
    ...config,
    rpcAddr: flags.rpcAddr ?? config.rpcAddr,
    prometheusAddr: flags.prometheusAddr ?? config.prometheusAddr,
    maxGasBurntView: flags.maxGasBurntView ?? config.maxGasBurntView,
  };
  if (out.prometheusAddr !== null && sameListenAddr(out.prometheusAddr, out.rpcAddr))
    throw new ConfigError(
      `the metrics address is the RPC address (${out.rpcAddr}): the metrics listener needs an address of its own (--rpc-prometheus-addr, rpc.prometheus_addr)`,
    );
  return out;
}
