import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const CACHE = join(import.meta.dirname, '..', '.asc');
const ASC_VERSION: string = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('assemblyscript/package.json'), 'utf8'),
).version;

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
 * a test file; in a process without it, about one. Binaries are kept under test/.asc/, named by a hash
 * of the compiler's version and the input, so the test files that build the same contract compile it
 * once between them.
 */
export async function compileAssemblyScript(
  files: Record<string, string>,
  options: object,
): Promise<Uint8Array> {
  const input = JSON.stringify({ files, options });
  const key = createHash('sha256').update(`${ASC_VERSION}\n${input}`).digest('hex');
  const cached = join(CACHE, `${key}.wasm`);
  try {
    return new Uint8Array(readFileSync(cached));
  } catch {
    const binary = await compileInChild(input, Object.keys(files).join(', '));
    // Another test file may be compiling the same input: each writes its own file and renames it in.
    mkdirSync(CACHE, { recursive: true });
    const tmp = `${cached}.${process.pid}.tmp`;
    writeFileSync(tmp, binary);
    renameSync(tmp, cached);
    return binary;
  }
}

function compileInChild(input: string, what: string): Promise<Uint8Array> {
  const { NODE_OPTIONS: _, ...env } = process.env;
  const child = spawn(process.execPath, [join(import.meta.dirname, 'asc_child.mjs')], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => out.push(b));
  child.stderr.on('data', (b: Buffer) => err.push(b));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(new Uint8Array(Buffer.concat(out)));
      else reject(new Error(`asc ${what}: ${Buffer.concat(err).toString()}`));
    });
  });
}

/** Compiles one of test/contracts/*.ts. */
export function compileContract(name: string): Promise<Uint8Array> {
  const source = readFileSync(join(import.meta.dirname, '..', 'contracts', `${name}.ts`), 'utf8');
  return compileAssemblyScript({ [`assembly/${name}.ts`]: source }, CONTRACT_OPTIONS);
}
