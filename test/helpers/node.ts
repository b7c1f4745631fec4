// Starts the real CLI in its own process on a free port and talks to it over HTTP.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { base58Decode } from '@nearlite/primitives';
import { postJson } from './post.js';

const ROOT = join(import.meta.dirname, '..', '..');
export const CLI = join(ROOT, 'packages', 'node', 'bin', 'nearlite.js');

export function cli(
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
  cwd?: string,
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 60_000, env, cwd });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A command that must refuse to run: exit status 1, a message matching `expected`, no stack trace. */
export function refused(t: Tap.Test, args: readonly string[], expected: RegExp, what: string): string {
  const r = cli(args);
  t.equal(r.status, 1, `${what}: exit status 1`);
  t.match(r.stderr, expected, what);
  t.notMatch(r.stderr, /\n\s+at /, `${what}: no stack trace`);
  return r.stderr;
}

type ConfigJson = Record<string, unknown> & { rpc?: Record<string, unknown> };

/** Rewrites the home's config.json as `edit` returns it. */
export function editConfig(home: string, edit: (config: ConfigJson) => ConfigJson): void {
  const path = join(home, 'config.json');
  writeFileSync(path, JSON.stringify(edit(JSON.parse(readFileSync(path, 'utf8')) as ConfigJson), null, 2));
}

/** Sets config.json's block production delays (ms), for tests of the 10 × max staleness rule. */
export const editProductionDelays = (home: string, minMs: number, maxMs: number) =>
  editConfig(home, (c) => ({
    ...c,
    consensus: {
      ...(c.consensus as object),
      min_block_production_delay: { secs: Math.floor(minMs / 1000), nanos: (minMs % 1000) * 1_000_000 },
      max_block_production_delay: { secs: Math.floor(maxMs / 1000), nanos: (maxMs % 1000) * 1_000_000 },
    },
  }));

/** Merges `rpc` into config.json's `rpc` section. */
export const editRpc = (home: string, rpc: Record<string, unknown>) =>
  editConfig(home, (c) => ({ ...c, rpc: { ...c.rpc, ...rpc } }));

export function initHome(home: string, extra: readonly string[] = []): void {
  const r = cli(['init', '--home', home, '--chain-id', 'test-chain', ...extra]);
  if (r.status !== 0) throw new Error(`init failed: ${r.stderr}`);
}

/**
 * A local chain under one of NEAR's networks' ids, which init refuses to make: the genesis is
 * renamed after it, for tests of what a node does by chain id.
 */
export function initNamedChain(home: string, chainId: 'mainnet' | 'testnet'): void {
  initHome(home);
  const path = join(home, 'genesis.json');
  writeFileSync(
    path,
    JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), chain_id: chainId }, null, 2),
  );
}

export interface RunningNode {
  readonly url: string;
  readonly proc: ChildProcess;
  readonly logs: () => string;
  rpc<T = unknown>(method: string, params?: unknown): Promise<{ status: number; body: RpcBody<T> }>;
  /** Sends SIGTERM and waits for exit. */
  stop(): Promise<number | null>;
  /** SIGKILL: no chance to flush anything. */
  kill(): Promise<void>;
  /** The exit status once the process has ended by itself or been stopped (null: a signal ended it). */
  readonly exited: Promise<number | null>;
}

export interface RpcBody<T> {
  jsonrpc: string;
  id: unknown;
  result?: T;
  error?: {
    name: string;
    cause: { name: string; info?: Record<string, unknown> };
    code: number;
    message: string;
    data?: unknown;
  };
}

/** A nearlite process and what it has written. */
export interface SpawnedNearlite {
  readonly proc: ChildProcess;
  /** stdout and stderr as written so far, interleaved. */
  logs(): string;
  /** The exit code (null when a signal ended it). */
  readonly exited: Promise<number | null>;
}

/**
 * Any nearlite command as its own process (in `cwd`, else this one's), its output collected, not
 * waited for. With `fileSizeLimit` (bytes, rounded up to the shell's 512-byte blocks) no file the
 * process writes may grow past it (`ulimit -f`): a write beyond fails with EFBIG, as one on a full disk
 * fails with ENOSPC (Node ignores SIGXFSZ). With `openFilesLimit` the process may hold that many
 * descriptors (`ulimit -n`).
 */
export function spawnLogged(
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
  cwd?: string,
  fileSizeLimit?: number,
  openFilesLimit?: number,
): SpawnedNearlite {
  const limits = [
    ...(fileSizeLimit === undefined ? [] : [`ulimit -f ${Math.ceil(fileSizeLimit / 512)}`]),
    ...(openFilesLimit === undefined ? [] : [`ulimit -n ${openFilesLimit}`]),
  ];
  const [command, argv] =
    limits.length === 0
      ? [process.execPath, [CLI, ...args]]
      : ['/bin/sh', ['-c', `${limits.join(' && ')} && exec "$0" "$@"`, process.execPath, CLI, ...args]];
  const proc = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], env, cwd });
  let logs = '';
  const collect = (d: Buffer) => {
    logs += d.toString();
  };
  proc.stdout!.on('data', collect);
  proc.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, logs: () => logs, exited };
}

/**
 * Any nearlite command as its own process, ready once it logs "RPC on URL"; rejects with its logs
 * when it exits first or does not get there within `timeoutMs`.
 */
export async function spawnNearlite(
  args: readonly string[],
  timeoutMs = 60_000,
  cwd?: string,
  fileSizeLimit?: number,
  openFilesLimit?: number,
): Promise<RunningNode> {
  const { proc, logs, exited } = spawnLogged(args, undefined, cwd, fileSizeLimit, openFilesLimit);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nearlite did not start:\n${logs()}`)), timeoutMs);
    let ready = false;
    proc.stderr!.on('data', () => {
      // Searched until found only: a long-running node's log would make every later chunk rescan it.
      const m = ready ? null : /RPC on (http:\/\/[^\s"]+)/.exec(logs());
      if (m) {
        ready = true;
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nearlite exited with ${code}:\n${logs()}`));
    });
  });
  const running = () => proc.exitCode === null && proc.signalCode === null;
  return {
    url,
    proc,
    logs,
    exited,
    async rpc(method, params) {
      const res = await rawRpc(url, method, params, 'dontcare');
      return { status: res.status, body: JSON.parse(res.body) as RpcBody<never> };
    },
    async stop() {
      if (!running()) return proc.exitCode;
      proc.kill('SIGTERM');
      return exited;
    },
    async kill() {
      if (!running()) return;
      proc.kill('SIGKILL');
      await exited;
    },
  };
}

/** `nearlite run` on a free port of 127.0.0.1. */
export function startNode(home: string, extra: readonly string[] = []): Promise<RunningNode> {
  return spawnNearlite(['run', '--home', home, '--rpc-addr', '127.0.0.1:0', ...extra], 30_000);
}

/**
 * A follower of the chain whose home is `chainHome`: a home of its own in `chainHome/<name>` on that
 * chain's genesis, following `source` (the producer's URL, or any block stream) with `extra` flags.
 */
export function startFollower(
  chainHome: string,
  source: string,
  extra: readonly string[] = [],
  name = 'follower',
): Promise<RunningNode> {
  const home = join(chainHome, name);
  initHome(home, ['--genesis', join(chainHome, 'genesis.json')]);
  return startNode(home, ['--follow', source, ...extra]);
}

/** A JSON-RPC call answered as the node wrote it: status and body text, nothing parsed. */
export async function rawRpc(
  url: string,
  method: string,
  params: unknown,
  id = 'x',
): Promise<{ status: number; body: string }> {
  const res = await postJson(url, JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  return { status: res.status, body: res.text };
}

/**
 * Polls until the node's head (its final head with `finality` 'final') reaches `height`; a timeout
 * names the head it got to and ends with the node's last log lines, which say why (a follower's
 * failing source, a producer that stopped).
 */
export async function waitForHeight(
  node: RunningNode,
  height: number,
  timeoutMs = 30_000,
  finality: 'optimistic' | 'final' = 'optimistic',
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await node.rpc<{ header: { height: number } }>('block', { finality });
    if (body.result && body.result.header.height >= height) return;
    if (Date.now() > deadline) {
      const at = body.result ? `#${body.result.header.height}` : JSON.stringify(body.error);
      const tail = node.logs().trimEnd().split('\n').slice(-20).join('\n');
      throw new Error(`head did not reach ${height} (at ${at}); the node's last log lines:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function readKeyFile(home: string): { account_id: string; public_key: string; secret_key: string } {
  return JSON.parse(readFileSync(join(home, 'validator_key.json'), 'utf8'));
}

/** The ed25519 private key of a key file's `secret_key` (seed then public key), for node:crypto's sign. */
export function keyFilePrivateKey(key: { secret_key: string }): KeyObject {
  const seed = base58Decode(key.secret_key.slice('ed25519:'.length)).subarray(0, 32);
  return createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
    format: 'der',
    type: 'pkcs8',
  });
}

/** snake_case → camelCase keys, as @near-js/jsonrpc-client does before validating. */
export function camel(o: unknown): unknown {
  if (o === null || typeof o !== 'object') return o;
  if (Array.isArray(o)) return o.map(camel);
  return Object.fromEntries(
    Object.entries(o).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), camel(v)]),
  );
}
