// near-sandbox is nearcore built with its `sandbox` feature, which adds one host function,
// `sandbox_debug_log`: a contract's message for the node's log, at debug level under the target
// "sandbox", shown when RUST_LOG asks for it. A node in sandbox mode links it, in transactions and
// view calls alike; any other node refuses a contract that imports it with a LinkError, as a
// production nearcore does.
import { actions } from 'near-api-js';
import t from 'tap';
import wabt from 'wabt';
import { deployedAccount, type LocalChain, localChain } from './helpers/chain.js';

// Led by a byte order mark, which nearcore's String::from_utf8 keeps as U+FEFF.
const MESSAGE = '\uFEFFdebug from the contract: ünïcode';
const FIRST_FIVE = Buffer.from(MESSAGE).subarray(0, 5);

async function code(): Promise<Uint8Array> {
  const bytes = [...Buffer.from(MESSAGE)].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('');
  const w = await wabt();
  const m = w.parseWat(
    'debug.wat',
    `(module
      (import "env" "sandbox_debug_log" (func $log (param i64 i64)))
      (import "env" "value_return" (func $return (param i64 i64)))
      (memory 1)
      (data (i32.const 0) "${bytes}")
      (func (export "hello")
        (call $log (i64.const ${Buffer.byteLength(MESSAGE)}) (i64.const 0))
        (call $return (i64.const 5) (i64.const 0))))`,
  );
  return new Uint8Array(m.toBinary({}).buffer);
}

/** Starts a chain with RUST_LOG set (or not) for the node's process. */
async function chainWith(test: typeof t, rustLog: string | undefined, sandbox: boolean): Promise<LocalChain> {
  const before = process.env.RUST_LOG;
  if (rustLog === undefined) delete process.env.RUST_LOG;
  else process.env.RUST_LOG = rustLog;
  try {
    return await localChain(test, { sandbox });
  } finally {
    if (before === undefined) delete process.env.RUST_LOG;
    else process.env.RUST_LOG = before;
  }
}

/** The node's log lines from the "sandbox" target. */
const sandboxLines = (c: LocalChain) =>
  c.node
    .logs()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; target?: string; msg?: string })
    .filter((l) => l.target === 'sandbox');

const view = (c: LocalChain) =>
  c.node.rpc<{ result?: number[]; error?: string }>('query', {
    request_type: 'call_function',
    account_id: 'debug.test.near',
    method_name: 'hello',
    args_base64: '',
    finality: 'optimistic',
  });

t.test('a sandbox node runs it and logs the message at debug level when RUST_LOG asks', async (t) => {
  const c = await chainWith(t, 'info,sandbox=debug', true);
  const account = await deployedAccount(c, 'debug.test.near', await code(), 10n ** 25n);
  const outcome = await account.callFunctionRaw({
    contractId: 'debug.test.near',
    methodName: 'hello',
    args: {},
  });
  t.same(outcome.status, { SuccessValue: FIRST_FIVE.toString('base64') });
  t.same(outcome.receipts_outcome[0]!.outcome.logs, [], "not one of the receipt's logs");
  const viewed = await view(c);
  t.same(Buffer.from(viewed.body.result!.result!), FIRST_FIVE, 'a view call runs it too');
  const lines = sandboxLines(c);
  t.equal(lines.length, 2, 'one line from the transaction, one from the view call');
  for (const l of lines) {
    t.equal(l.level, 20, 'debug');
    t.equal(l.msg, MESSAGE);
  }
});

t.test('without RUST_LOG asking, a sandbox node runs it and logs nothing', async (t) => {
  const c = await chainWith(t, undefined, true);
  const account = await deployedAccount(c, 'debug.test.near', await code(), 10n ** 25n);
  const outcome = await account.callFunctionRaw({
    contractId: 'debug.test.near',
    methodName: 'hello',
    args: {},
  });
  t.ok('SuccessValue' in (outcome.status as object));
  t.notOk((await view(c)).body.result?.error);
  t.same(sandboxLines(c), []);
});

t.test('a node outside sandbox mode refuses the import with a LinkError', async (t) => {
  const c = await chainWith(t, 'info,sandbox=debug', false);
  const account = await deployedAccount(c, 'debug.test.near', await code(), 10n ** 25n);
  const outcome = await account.signAndSendTransaction({
    receiverId: 'debug.test.near',
    actions: [actions.functionCall('hello', new Uint8Array(), 30n * 10n ** 12n, 0n)],
    throwOnFailure: false,
  });
  t.same(outcome.status, {
    Failure: {
      ActionError: {
        index: 0,
        // runtime/src/conversions.rs: a LinkError is stored as this ExecutionError.
        kind: { FunctionCallError: { ExecutionError: 'Link Error: unknown or invalid import' } },
      },
    },
  });
  t.equal(
    (await view(c)).body.result?.error,
    'wasm execution failed with error: LinkError { msg: "unknown or invalid import" }',
  );
  t.same(sandboxLines(c), []);
});
