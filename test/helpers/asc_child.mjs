// Compiles AssemblyScript for the tests, in a process of its own started without the tests'
// TypeScript loader (see asc.ts). Reads `{ files, options }` as JSON on stdin and writes the Wasm
// binary to stdout, or the compiler's messages to stderr and exits with 1.
import asc from 'assemblyscript/asc';

// Whole bytes first: a character split across two chunks would not survive decoding them one by one.
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { files, options } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const result = await asc.compileString(files, options);
if (!result.binary) {
  process.stderr.write(result.stderr.toString());
  process.exit(1);
}
process.stdout.write(result.binary);
