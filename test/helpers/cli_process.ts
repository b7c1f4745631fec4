// Any nearlite command as its own process (`serve`, or `run` with extra flags), with the node
// helpers' RPC client: waits for the "RPC on URL" log line.
import { type ChildProcess, spawn } from 'node:child_process';
import { CLI, type RpcBody } from './node.js';

export interface CliProcess {
  readonly url: string;
  readonly proc: ChildProcess;
  readonly logs: () => string;
  rpc<T = unknown>(method: string, params?: unknown): Promise<{ status: number; body: RpcBody<T> }>;
  stop(): Promise<number | null>;
  kill(): Promise<void>;
}

export async function startCli(args: readonly string[]): Promise<CliProcess> {
  const proc = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let logs = '';
  proc.stdout!.on('data', (d) => {
    logs += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nearlite did not start:\n${logs}`)), 60_000);
    proc.stderr!.on('data', (d) => {
      logs += d.toString();
      const m = /RPC on (http:\/\/[^\s"]+)/.exec(logs);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`nearlite exited with ${code}:\n${logs}`));
    });
  });
  return {
    url,
    proc,
    logs: () => logs,
    async rpc(method, params) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'dontcare', method, params }),
      });
      return { status: res.status, body: (await res.json()) as RpcBody<never> };
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return proc.exitCode;
      proc.kill('SIGTERM');
      return exited;
    },
    async kill() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGKILL');
      await exited;
    },
  };
}
