// RUST_LOG, the filter near-sandbox reads, decides whether contracts' sandbox_debug_log messages are
// logged: a `sandbox=LEVEL` directive where there is one, else the bare default level.
import t from 'tap';
import { rustLogShowsSandboxDebug } from '../src/log.js';

t.test('RUST_LOG lets the sandbox target through at debug or trace', async (t) => {
  const cases: [string | undefined, boolean][] = [
    [undefined, false],
    ['', false],
    ['info', false],
    ['debug', true],
    ['TRACE', true],
    ['sandbox=debug', true],
    ['info,sandbox=debug', true],
    ['warn, sandbox = trace', true],
    ['debug,sandbox=info', false],
    ['near=debug,runtime=debug', false],
    ['sandbox=debug,sandbox=warn', false],
  ];
  for (const [rustLog, shown] of cases) t.equal(rustLogShowsSandboxDebug(rustLog), shown, `${rustLog}`);
});
