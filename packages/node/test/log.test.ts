// RUST_LOG, the filter near-sandbox reads, decides whether contracts' sandbox_debug_log messages are
// logged: a `sandbox=LEVEL` directive where there is one, else the bare default level.
import t from 'tap';
import {
  filterLevels,
  rustLogLevel,
  rustLogShowsSandboxDebug,
  rustLogTargetLevel,
  stderrLogger,
} from '../src/log.js';

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
  "RUST_LOG's near or bare level is the node's level, as nearcore's filter takes it; --quiet is warn at most",
  async (t) => {
    const cases: [string | undefined, boolean, string][] = [
      [undefined, false, 'info'],
      ['warn', false, 'warn'],
      ['ERROR', false, 'error'],
      ['debug', false, 'debug'],
      ['off', false, 'silent'],
      // tracing's filter adds no default directive: one without a bare level shows no other target.
      ['', false, 'silent'],
      [',', false, 'silent'],
      ['sandbox=debug', false, 'silent'],
      ['stats=info', false, 'silent'],
      ['bogus', false, 'silent'],
      ['warn,sandbox=debug', false, 'warn'],
      // The node's own lines are nearcore's `near_*` crates': their directive is over the bare one.
      ['near=debug', false, 'debug'],
      ['warn,near=info', false, 'info'],
      ['debug,near=off', false, 'silent'],
      [undefined, true, 'warn'],
      ['debug', true, 'warn'],
      ['error', true, 'error'],
    ];
    for (const [rustLog, quiet, level] of cases)
      t.equal(stderrLogger(quiet, rustLog).pino?.level, level, `${rustLog}${quiet ? ' --quiet' : ''}`);
    t.equal(rustLogLevel('info,near=debug,trace'), 'trace', 'the last bare level');
    t.same(
      filterLevels({ rustLog: '', verboseModule: null }, false),
      { node: 'silent', sandbox: 'silent', stats: 'silent' },
      'an empty filter shows nothing',
    );
    t.same(
      filterLevels({ rustLog: undefined, verboseModule: null }, false),
      { node: 'info', sandbox: 'silent', stats: 'info' },
      "no filter is nearcore's default one",
    );
    t.same(
      filterLevels({ rustLog: 'stats=info', verboseModule: null }, true),
      { node: 'silent', sandbox: 'silent', stats: 'info' },
      'a target named alone shows that target only',
    );
    t.same(
      filterLevels({ rustLog: 'trace', verboseModule: '' }, false),
      { node: 'debug', sandbox: 'debug', stats: 'debug' },
      'verbose_module "" takes the bare level\'s place, as tracing\'s add_directive does',
    );
    t.same(
      filterLevels({ rustLog: 'warn', verboseModule: 'near' }, false).node,
      'debug',
      "verbose_module names the node's own target",
    );
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
