// RUST_LOG, the filter near-sandbox reads, decides whether contracts' sandbox_debug_log messages are
// logged: a `sandbox=LEVEL` directive where there is one, else the bare default level.
import t from 'tap';
import { rustLogLevel, rustLogShowsSandboxDebug, rustLogTargetLevel, stderrLogger } from '../src/log.js';

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

t.test(
  "RUST_LOG's bare level is the node's level, as nearcore's filter takes it; --quiet is warn at most",
  async (t) => {
    const cases: [string | undefined, boolean, string][] = [
      [undefined, false, 'info'],
      ['warn', false, 'warn'],
      ['ERROR', false, 'error'],
      ['debug', false, 'debug'],
      ['off', false, 'silent'],
      ['sandbox=debug', false, 'info'],
      ['warn,sandbox=debug', false, 'warn'],
      ['bogus', false, 'info'],
      [undefined, true, 'warn'],
      ['debug', true, 'warn'],
      ['error', true, 'error'],
    ];
    for (const [rustLog, quiet, level] of cases)
      t.equal(stderrLogger(quiet, rustLog).pino?.level, level, `${rustLog}${quiet ? ' --quiet' : ''}`);
    t.equal(rustLogLevel('info,near=debug,trace'), 'trace', 'the last bare level');
  },
);

t.test(
  "a RUST_LOG directive for the stats target sets that target's level, as nearcore's filter does",
  async (t) => {
    const cases: [string | undefined, string | null][] = [
      [undefined, null],
      ['warn', null],
      ['warn,stats=info', 'info'],
      ['info,stats=warn', 'warn'],
      ['stats=off', 'silent'],
      ['stats = DEBUG', 'debug'],
      ['stats=bogus', null],
      ['stats=info,stats=error', 'error'],
    ];
    for (const [rustLog, level] of cases) t.equal(rustLogTargetLevel(rustLog, 'stats'), level, `${rustLog}`);
  },
);
