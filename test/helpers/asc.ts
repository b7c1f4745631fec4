import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** How test/contracts/*.ts are built: AssemblyScript 0.28, MVP features, stub runtime. */
export const CONTRACT_OPTIONS = {
  optimizeLevel: 3,
  runtime: 'stub',
  noAssert: true,
  use: ['abort='],
  disable: ['bulk-memory', 'nontrapping-f2i'],
};

/**
 * Compiles AssemblyScript sources (`asc.compileString`'s arguments) in a plain Node process. Loaded
 * through the tests' TypeScript loader, the compiler's 13 MB binaryen module alone costs ~20 s of CPU
 * a test file; in a process without it, about one.
 */
export function compileAssemblyScript(files: Record<string, string>, options: object): Promise<Uint8Array> {
  const { NODE_OPTIONS: _, ...env } = process.env;
  const child = spawn(process.execPath, [join(import.meta.dirname, 'asc_child.mjs')], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => err.push(b));
  child.stdin.end(JSON.stringify({ files, options }));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(new Uint8Array(Buffer.concat(out)));
      else reject(new Error(`asc ${Object.keys(files).join(', ')}: ${Buffer.concat(err).toString()}`));
    });
  });
}

/** Compiles one of test/contracts/*.ts. */
export function compileContract(name: string): Promise<Uint8Array> {
  const source = readFileSync(join(import.meta.dirname, '..', 'contracts', `${name}.ts`), 'utf8');
  return compileAssemblyScript({ [`assembly/${name}.ts`]: source }, CONTRACT_OPTIONS);
}
