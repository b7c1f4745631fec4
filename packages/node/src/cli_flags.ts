// The command line's flag values, checked: a bad one is a usage error, printed as one line.
import { parseHostPort } from './config.js';
import type { RpcFlags } from './rpc_flags.js';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function intFlag(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new UsageError(`--${name} must be a non-negative integer below 2^53, got '${v}'`);
  return n;
}

export function hostPortFlag(v: string, name: string): void {
  try {
    parseHostPort(v, name);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** `--upstream-rpc`: an http(s) URL, checked at start rather than at the first forwarded call. */
export function upstreamFlag(v: string | undefined): { upstreamRpc: string } | object {
  if (v === undefined) return {};
  if (!/^https?:\/\//i.test(v) || !URL.canParse(v))
    throw new UsageError(`--upstream-rpc must be an http(s):// URL, got '${v}'`);
  return { upstreamRpc: v };
}

/** The flags that override config.json's RPC settings, on every command that serves RPC (nearcore's `run` flags). */
export function rpcFlags(values: {
  readonly 'rpc-addr'?: string;
  readonly 'rpc-prometheus-addr'?: string;
  readonly 'max-gas-burnt-view'?: string;
}): RpcFlags {
  const viewGas = values['max-gas-burnt-view'];
  if (viewGas !== undefined && !/^\d{1,20}$/.test(viewGas))
    throw new UsageError(`--max-gas-burnt-view must be an amount of gas, got '${viewGas}'`);
  const prometheusAddr = values['rpc-prometheus-addr'];
  if (prometheusAddr !== undefined) hostPortFlag(prometheusAddr, '--rpc-prometheus-addr');
  return {
    ...(values['rpc-addr'] ? { rpcAddr: values['rpc-addr'] } : {}),
    ...(prometheusAddr !== undefined ? { prometheusAddr } : {}),
    ...(viewGas !== undefined ? { maxGasBurntView: BigInt(viewGas) } : {}),
  };
}
