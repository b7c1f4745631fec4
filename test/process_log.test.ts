// What the process itself reports reaches the log as one structured event each, not as Node's text
// on stderr between the JSON lines: a warning (Node's own, a dependency's: the AWS SDK's notice of
// the Node versions its later releases need is seven lines), and the exception or rejection nothing
// handled that ends the node.
import { dirname, join } from 'node:path';
import t from 'tap';
import { cli, initHome, spawnLogged } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

/**
 * A module loaded before the CLI (`--require`) that runs `body` once the CLI starts listening for
 * `event`, and the environment that loads it: a home initialised in a fresh directory.
 */
function preloaded(t: Tap.Test, event: string, body: string): { home: string; env: NodeJS.ProcessEnv } {
  const script = `
let armed = false;
process.on('newListener', (event) => {
  if (event !== '${event}' || armed) return;
  armed = true;
  ${body}
});
`;
  const dir = tempDir(t, { 'preload.cjs': script });
  const home = join(dir, 'home');
  initHome(home);
  return { home, env: { ...process.env, NODE_OPTIONS: `--require ${join(dir, 'preload.cjs')}` } };
}

// A dependency-style notice over several lines at once, and a coded deprecation a little later
// (unref'd, so a short command exits without it).
const WARNINGS = `
  process.nextTick(() => process.emitWarning("a dependency's notice\\n\\nover several lines", 'NoticeWarning'));
  setTimeout(() => process.emitWarning('an old API', { type: 'DeprecationWarning', code: 'DEP0999' }), 300).unref();
`;

/** Every line of a log, parsed: a line that is not a JSON event fails the test. */
function events(t: Tap.Test, log: string): { level: number; msg: string }[] {
  const lines = log.split('\n').filter((l) => l !== '');
  const parsed = lines.map((l) => {
    try {
      return JSON.parse(l) as { level: number; msg: string };
    } catch {
      return null;
    }
  });
  t.same(
    lines.filter((_, i) => parsed[i] === null),
    [],
    'every line of the log is a JSON event',
  );
  return parsed.filter((e) => e !== null);
}

/**
 * The warn-level events but the stop's own line (neard's, at warn level too), which says "once
 * started" when the signal comes before the RPC listens.
 */
const warnings = (es: { level: number; msg: string }[]) =>
  es
    .filter((e) => e.level === 40 && !/^SIG\w+, stopping( once started)?\.\.\./.test(e.msg))
    .map((e) => e.msg);

t.test('a short command logs a warning as one event at warn level', async (t) => {
  const { home, env } = preloaded(t, 'warning', WARNINGS);
  const r = cli(['init', '--home', join(dirname(home), 'another')], env);
  t.equal(r.status, 0, r.stderr);
  t.notMatch(r.stderr, /\(node:\d+\)/, "no warning in Node's own text");
  t.same(warnings(events(t, r.stderr)), ["NoticeWarning: a dependency's notice over several lines"]);
});

t.test('a running node logs a warning as one event, its code first as Node prints it', async (t) => {
  const { home, env } = preloaded(t, 'warning', WARNINGS);
  const node = spawnLogged(['run', '--home', home, '--rpc-addr', '127.0.0.1:0'], env);
  const deadline = Date.now() + 20_000;
  while (!/DEP0999/.test(node.logs()) && node.proc.exitCode === null && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  node.proc.kill('SIGTERM');
  t.equal(await node.exited, 0, node.logs());
  t.notMatch(node.logs(), /\(node:\d+\)/, "no warning in Node's own text");
  t.same(warnings(events(t, node.logs())), [
    "NoticeWarning: a dependency's notice over several lines",
    '[DEP0999] DeprecationWarning: an old API',
  ]);
});

/**
 * Waits for the node's first NoticeWarning, and `settleMs` more for the threads that would raise it
 * again; stops the node: its log holds the warning once, as a JSON event, and no Node text.
 */
async function loggedOnce(
  t: Tap.Test,
  node: ReturnType<typeof spawnLogged>,
  settleMs: number,
): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!/NoticeWarning/.test(node.logs()) && node.proc.exitCode === null && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, settleMs));
  node.proc.kill('SIGTERM');
  t.equal(await node.exited, 0, node.logs());
  t.notMatch(node.logs(), /\(node:\d+\)/, "no warning in Node's own text");
  t.same(
    warnings(events(t, node.logs())),
    ["NoticeWarning: a dependency's notice over several lines"],
    'once',
  );
}

t.test("a follower's block preparation threads log their warnings as the node's own", async (t) => {
  // A thread that fetches and prepares blocks (its data names the source) warns as the AWS SDK does
  // when it loads there: once the thread listens for requests, its modules are all loaded.
  const script = `
const { isMainThread, parentPort, workerData } = require('node:worker_threads');
if (!isMainThread && typeof workerData?.spec === 'string') {
  const on = parentPort.on.bind(parentPort);
  parentPort.on = (event, listener) => {
    if (event === 'message')
      process.nextTick(() => process.emitWarning("a dependency's notice\\n\\nover several lines", 'NoticeWarning'));
    return on(event, listener);
  };
}
`;
  const dir = tempDir(t, { 'preload.cjs': script, 'lake/.keep': '' });
  const home = join(dir, 'home');
  initHome(home);
  const env = { ...process.env, NODE_OPTIONS: `--require ${join(dir, 'preload.cjs')}` };
  const node = spawnLogged(
    ['run', '--home', home, '--follow', `file:${join(dir, 'lake')}`, '--rpc-addr', '127.0.0.1:0'],
    env,
  );
  await loggedOnce(t, node, 500);
});

t.test("a producer's threads (chain, signatures, views) log their warnings as the node's own", async (t) => {
  // Every worker thread warns once it listens for work, as a dependency loaded there would.
  const script = `
const { isMainThread, parentPort } = require('node:worker_threads');
if (!isMainThread) {
  const on = parentPort.on.bind(parentPort);
  parentPort.on = (event, listener) => {
    if (event === 'message')
      process.nextTick(() => process.emitWarning("a dependency's notice\\n\\nover several lines", 'NoticeWarning'));
    return on(event, listener);
  };
}
`;
  const dir = tempDir(t, { 'preload.cjs': script });
  const home = join(dir, 'home');
  initHome(home);
  const env = { ...process.env, NODE_OPTIONS: `--require ${join(dir, 'preload.cjs')}` };
  const node = spawnLogged(['run', '--home', home, '--rpc-addr', '127.0.0.1:0', '--block-time', '100'], env);
  await loggedOnce(t, node, 1000);
});

t.test('a command that prints plain text prints a warning as one line of it', async (t) => {
  const { home, env } = preloaded(t, 'warning', WARNINGS);
  const r = cli(['repair', '--home', home], env);
  t.equal(r.status, 0, r.stderr);
  t.equal(r.stderr, "warning: NoticeWarning: a dependency's notice over several lines\n");
  t.match(r.stdout, /nothing to repair/);
});

for (const [event, fail, what] of [
  ['uncaughtException', "throw new Error('boom')", 'uncaught exception'],
  ['unhandledRejection', "Promise.reject(new Error('boom'))", 'unhandled rejection'],
] as const) {
  t.test(`an ${what} ends the node with one fatal event carrying its stack, and status 1`, async (t) => {
    // Thrown (or rejected) outside any handler, once the CLI listens for it.
    const { home, env } = preloaded(t, event, `setTimeout(() => { ${fail} }, 300);`);
    const node = spawnLogged(['run', '--home', home, '--rpc-addr', '127.0.0.1:0'], env);
    const timer = setTimeout(() => node.proc.kill('SIGKILL'), 30_000);
    t.equal(await node.exited, 1, node.logs());
    clearTimeout(timer);
    const fatal = events(t, node.logs()).filter((e) => e.level === 60) as {
      msg: string;
      err?: { message?: string; stack?: string };
    }[];
    t.equal(fatal.length, 1, 'one fatal event');
    t.equal(fatal[0]?.msg, `${what}: boom; exiting`);
    t.match(fatal[0]?.err?.stack ?? '', /^Error: boom\n\s+at /, 'with its stack');
  });
}
