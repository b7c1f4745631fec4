// Loaded into every test process before its file (tap's `node-arg`), and so into the worker threads
// tests start, before any TypeScript loader: hence plain JavaScript.
//
// tap tracks the processes a test starts by preloading its hooks into each of them: it puts them in
// the test process's NODE_OPTIONS and adds them to every spawn (`process-on-spawn`, whose state is a
// global under this symbol). A nearlite node a test starts then loads them on its main thread and on
// each of its worker threads, and spent nearly twice the CPU for it (a subset of the node-starting
// test files: ~205 against ~115 CPU-seconds). Coverage is off, so nothing reads what they record:
// the processes the tests start run as a user's do.
const SPAWN_HOOKS = Symbol.for('process-on-spawn@*:singletonId');
// One option of NODE_OPTIONS, quoted as tap writes it or bare.
const TRACKER =
  /(?:^|\s)"?--(?:import|loader|experimental-loader)[=\s][^\s"]*@tapjs[/\\]processinfo[^\s"]*"?/g;

const hooks = globalThis[SPAWN_HOOKS];
if (Array.isArray(hooks?.listeners)) hooks.listeners.length = 0;

const options = process.env.NODE_OPTIONS?.replace(TRACKER, '').trim();
if (options) process.env.NODE_OPTIONS = options;
else delete process.env.NODE_OPTIONS;
