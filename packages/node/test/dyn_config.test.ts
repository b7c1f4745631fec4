// nearcore's dynamic config: log_config.json and config.json's `expected_shutdown`, read at the start
// and again on SIGHUP, with the metrics nearcore gives of them.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';
import { DynamicConfig, DynConfigError, readLogConfig } from '../src/dyn_config.js';
import { filterLevels, type LogFilter, type Logger, logFilterProblem, stderrLogger } from '../src/log.js';

function recordingLogger(): Logger & { lines: string[]; filters: (LogFilter | null)[] } {
  const lines: string[] = [];
  const filters: (LogFilter | null)[] = [];
  return {
    lines,
    filters,
    info: (m) => lines.push(`INFO ${m}`),
    warn: (m) => lines.push(`WARN ${m}`),
    error: (m) => lines.push(`ERROR ${m}`),
    reload: (f) => filters.push(f),
  };
}

const writeConfig = (home: string, config: object) =>
  writeFileSync(join(home, 'config.json'), JSON.stringify(config));

t.test("verbose_module asks for one target's debug messages, or every target's when empty", async (t) => {
  const cases: [LogFilter, boolean, { node: string; sandbox: string; stats: string }][] = [
    [{ rustLog: undefined, verboseModule: null }, false, { node: 'info', sandbox: 'silent', stats: 'info' }],
    [{ rustLog: 'warn', verboseModule: '' }, false, { node: 'debug', sandbox: 'debug', stats: 'debug' }],
    [{ rustLog: 'warn', verboseModule: 'sandbox' }, false, { node: 'warn', sandbox: 'debug', stats: 'warn' }],
    // tracing's add_directive replaces the directive of the same target, the bare `trace` here.
    [{ rustLog: 'trace', verboseModule: '' }, false, { node: 'debug', sandbox: 'debug', stats: 'debug' }],
    [
      { rustLog: 'info,stats=warn', verboseModule: null },
      false,
      { node: 'info', sandbox: 'silent', stats: 'warn' },
    ],
    [{ rustLog: 'debug', verboseModule: null }, true, { node: 'warn', sandbox: 'debug', stats: 'warn' }],
  ];
  for (const [filter, quiet, levels] of cases)
    t.same(filterLevels(filter, quiet), levels, `${JSON.stringify(filter)}${quiet ? ' --quiet' : ''}`);
});

t.test("a reload sets the node's level; none goes back to the one it started with", async (t) => {
  const log = stderrLogger(false, 'info');
  log.reload!({ rustLog: 'error', verboseModule: null });
  t.equal(log.pino?.level, 'error');
  log.reload!({ rustLog: undefined, verboseModule: '' });
  t.equal(log.pino?.level, 'debug', "rust_log left out is the start's, with verbose_module over it");
  log.reload!(null);
  t.equal(log.pino?.level, 'info', 'no log_config.json: as started');
});

t.test("a filter is read as tracing-subscriber's EnvFilter reads it", async (t) => {
  t.equal(logFilterProblem('info,stats=warn,near=off'), null);
  t.equal(
    logFilterProblem('near_chain,near-client::x=4,[span]=debug,1'),
    null,
    'targets, spans, numbered levels',
  );
  t.equal(logFilterProblem('info,,'), null, 'empty directives are skipped');
  t.equal(logFilterProblem(undefined, 'sandbox'), null);
  t.match(logFilterProblem('info,stats=loud'), /"stats=loud" is not a directive/);
  t.match(logFilterProblem('info,=debug'), /"=debug" is not a directive/, 'a level for no target');
  t.match(
    logFilterProblem('info', 'a=b'),
    /"a=b=debug" is not a directive/,
    "verbose_module's directive too",
  );
});

t.test('numbered levels are levels, as tracing reads them', async (t) => {
  const log = stderrLogger(false, '1');
  t.equal(log.pino?.level, 'error', '1 is error');
  log.reload!({ rustLog: 'info,stats=0', verboseModule: null });
  t.same(filterLevels({ rustLog: 'info,stats=0', verboseModule: null }, false).stats, 'silent', '0 is off');
  t.same(filterLevels({ rustLog: '4', verboseModule: null }, false).node, 'debug');
});

t.test('log_config.json: absent, with comments, and each way it can be wrong', async (t) => {
  const home = tempDir(t);
  t.equal(readLogConfig(home), null, 'no file: no filter');
  const path = join(home, 'log_config.json');
  writeFileSync(
    path,
    '{\n  // quieter\n  "rust_log": "warn", "verbose_module": null, "opentelemetry": "info"\n}',
  );
  t.same(readLogConfig(home), { rustLog: 'warn', verboseModule: null });
  writeFileSync(path, '{}');
  t.same(readLogConfig(home), { rustLog: undefined, verboseModule: null }, 'every field may be left out');
  writeFileSync(path, '{ "rust_log": "stats=loud" }');
  t.same(
    readLogConfig(home),
    { rustLog: 'stats=loud', verboseModule: null },
    'a filter is no matter of the file',
  );
  const wrong: [string, RegExp][] = [
    ['{ "rust_log": ', /log_config\.json/],
    ['[]', /log_config\.json is not a JSON object/],
    ['{ "rust_log": 3 }', /rust_log must be a string or null/],
    ['{ "verbose_module": true }', /verbose_module must be a string or null/],
  ];
  for (const [text, message] of wrong) {
    writeFileSync(path, text);
    t.throws(() => readLogConfig(home), { name: 'DynConfigError', message }, text);
  }
});

t.test('a file that cannot be read stops the start', async (t) => {
  const home = tempDir(t);
  writeConfig(home, { expected_shutdown: 'soon' });
  t.throws(() => DynamicConfig.open(home, recordingLogger()), DynConfigError);
  writeConfig(home, {});
  writeFileSync(join(home, 'log_config.json'), 'not json');
  t.throws(() => DynamicConfig.open(home, recordingLogger()), /log_config\.json/);
});

t.test('a reload applies both files, or neither when one is wrong; the metrics say which', async (t) => {
  const home = tempDir(t);
  writeConfig(home, { expected_shutdown: 10 });
  const logger = recordingLogger();
  const dyn = DynamicConfig.open(home, logger);
  const registry = new Registry();
  dyn.register(registry);
  const watched: (number | null)[] = [];
  dyn.watchExpectedShutdown((h) => watched.push(h));
  let reason: string | null = null;
  void dyn.shutdown.then((r) => {
    reason = r;
  });
  t.same(logger.filters, [null], 'no log_config.json: the start filter');
  t.equal(dyn.expectedShutdown, 10);
  dyn.headAt(9);
  await new Promise((r) => setImmediate(r));
  t.equal(reason, null, 'below the height: no shutdown');
  let text = await registry.metrics();
  t.match(text, /near_config_reloads_total 1\n/, 'the start counts as a load, as nearcore counts it');
  t.match(text, /near_config_correct 1\n/);
  t.match(
    text,
    /near_config_mutable_field\{field_name="expected_shutdown",timestamp="\d+",value="Some\(10\)"\} 1/,
  );

  writeFileSync(join(home, 'log_config.json'), '{ "rust_log": "warn" }');
  writeConfig(home, { expected_shutdown: 'soon' });
  t.equal(dyn.reload(), false, 'config.json cannot be read');
  t.equal(logger.filters.length, 1, 'the log filter is not touched');
  t.equal(dyn.expectedShutdown, 10, 'nor the height');
  t.match(
    logger.lines.at(-1),
    /^WARN Dynamically updatable configs are not valid.*expected_shutdown must be/,
  );
  text = await registry.metrics();
  t.match(text, /near_config_correct 0\n/);
  t.match(text, /near_config_reloads_total 1\n/, 'a failed reload is not counted');

  writeConfig(home, { expected_shutdown: 5 });
  t.equal(dyn.reload(), true);
  t.same(logger.filters.at(-1), { rustLog: 'warn', verboseModule: null }, "log_config.json's filter applied");
  t.ok(logger.lines.includes("INFO Updated config field 'expected_shutdown' from Some(10) to Some(5)"));
  t.same(watched, [10, 5], 'the watcher is told of the change');
  await new Promise((r) => setImmediate(r));
  t.equal(
    reason,
    'Expected shutdown triggered: head block(9) >= (5)',
    'a head already past it stops the node',
  );
  text = await registry.metrics();
  t.match(text, /near_config_correct 1\n/);
  t.match(text, /near_config_reloads_total 2\n/);
  t.match(text, /value="Some\(10\)"\} 0/, 'the old value is 0');
  t.match(text, /value="Some\(5\)"\} 1/, 'the new one 1');

  writeFileSync(join(home, 'log_config.json'), '{ "rust_log": "info,stats=loud" }');
  writeConfig(home, { expected_shutdown: 4 });
  const filtersBefore = logger.filters.length;
  t.equal(dyn.reload(), true, 'a filter the log cannot take does not stop the reload');
  t.equal(logger.filters.length, filtersBefore, 'the log keeps its filter');
  t.ok(
    logger.lines.some((l) =>
      /^ERROR Failed to update the logging layer .*"stats=loud" is not a directive/.test(l),
    ),
    "nearcore's error line",
  );
  t.equal(dyn.expectedShutdown, 4, 'and expected_shutdown is taken');
  t.match(await registry.metrics(), /near_config_correct 1\n/);

  rmSync(join(home, 'log_config.json'));
  t.equal(dyn.reload(), true);
  t.equal(logger.filters.at(-1), null, 'the file removed: back to the start filter');
  t.ok(
    logger.lines.some((l) =>
      /^INFO Reset the config .*log_config\.json because the config file doesn't exist\./.test(l),
    ),
  );
  t.ok(logger.lines.includes("INFO Mutable config field 'expected_shutdown' remains the same: Some(4)"));
});

t.test('the head reaching the height stops the node once', async (t) => {
  const home = tempDir(t);
  writeConfig(home, { expected_shutdown: 3 });
  const dyn = DynamicConfig.open(home, recordingLogger());
  dyn.headAt(2);
  dyn.headAt(3);
  dyn.headAt(4);
  t.equal(await dyn.shutdown, 'Expected shutdown triggered: head block(3) >= (3)');
});
