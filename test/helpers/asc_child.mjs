// Compiles AssemblyScript for the tests, in a process of its own started without the tests'
// TypeScript loader (see asc.ts). Reads `{ files, options }` as JSON on stdin and writes the Wasm
// binary to stdout, or the compiler's messages to stderr and exits with 1.
import asc from 'assemblyscript/asc';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const { files, options } = JSON.parse(input);
const result = await asc.compileString(files, options);
if (!result.binary) {
  process.stderr.write(result.stderr.toString());
  process.exit(1);
}
process.stdout.write(result.binary);
