// What both commands run: the CLI from the bundle (`npm run build` writes it, and it starts in a
// fraction of the time of the module tree in dist/), or from dist/ when there is no bundle.
import { existsSync } from 'node:fs';

export async function runCli(name, argv) {
  const entry = existsSync(new URL('../bundle/cli.js', import.meta.url))
    ? '../bundle/cli.js'
    : '../dist/cli.js';
  const { main } = await import(entry);
  try {
    const code = await main(argv);
    if (typeof code === 'number') process.exitCode = code;
  } catch (err) {
    process.stderr.write(`${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}
