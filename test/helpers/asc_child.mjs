// Compiles AssemblyScript for the tests, in a process of its own started without the tests'
// TypeScript loader (see asc.ts). Reads `{ files, options }` as JSON on stdin and writes the Wasm
// binary to stdout, or the compiler's messages to stderr and exits with 1.
//
// Binaries are kept under test/.asc/, named by a hash of the compiler's version and the input, so
// the test files that build the same contract compile it once between them.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let input = '';
for await (const chunk of process.stdin) input += chunk;

const require = createRequire(import.meta.url);
const { version } = JSON.parse(readFileSync(require.resolve('assemblyscript/package.json'), 'utf8'));
const key = createHash('sha256').update(`${version}\n${input}`).digest('hex');
const cached = join(import.meta.dirname, '..', '.asc', `${key}.wasm`);

let binary;
try {
  binary = readFileSync(cached);
} catch {
  const { default: asc } = await import('assemblyscript/asc');
  const { files, options } = JSON.parse(input);
  const result = await asc.compileString(files, options);
  if (!result.binary) {
    process.stderr.write(result.stderr.toString());
    process.exit(1);
  }
  binary = result.binary;
  // Another test file may be compiling the same input: each writes its own file and renames it in.
  mkdirSync(dirname(cached), { recursive: true });
  const tmp = `${cached}.${process.pid}.tmp`;
  writeFileSync(tmp, binary);
  renameSync(tmp, cached);
}
process.stdout.write(binary);
