// The import table against nearcore's (fixtures/nearcore_imports.json, taken from its imports.rs):
// every env function a production node links, with its Wasm signature, and the one a sandbox build
// adds. `sandbox_debug_log` is linked only where the node offers the sandbox's host functions; it
// costs nothing and hands its message, decoded as UTF-8, to the node's log.
import { readFileSync } from 'node:fs';
import {
  HOST_FUNCTION_GATES,
  IMPORT_TABLE,
  offerSandboxHostFunctions,
  runFunction,
  SANDBOX_IMPORT_TABLE,
  type VMConfig,
} from '@nearlite/vm';
import t from 'tap';
import { call, config, fees, freshHash, MockExternal, makeContext, wat } from './helpers.js';

interface NearcoreImport {
  params: string[];
  result: string | null;
  config?: string;
  feature?: string;
}
const nearcore = JSON.parse(
  readFileSync(new URL('./fixtures/nearcore_imports.json', import.meta.url), 'utf8'),
).imports as Record<string, NearcoreImport>;
const signature = (d: { params: readonly string[]; result: string | null }) => ({
  params: [...d.params],
  result: d.result,
});

t.test("every production import is nearcore's, with nearcore's signature", async (t) => {
  const production = Object.entries(nearcore).filter(([, d]) => d.feature === undefined);
  t.equal(production.length, 89);
  t.same(Object.keys(IMPORT_TABLE).sort(), production.map(([name]) => name).sort());
  for (const [name, d] of production) t.same(signature(IMPORT_TABLE[name]!), signature(d), name);
});

t.test("the imports behind a config flag are nearcore's, flag for flag", async (t) => {
  const gated = Object.fromEntries(
    Object.entries(nearcore).flatMap(([name, d]) => (d.config === undefined ? [] : [[name, d.config]])),
  );
  t.equal(Object.keys(gated).length, 11);
  t.same(HOST_FUNCTION_GATES, gated);
});

// nearcore links an import only while its flag is on (`for_each_available_import!(config, …)`): a
// contract importing one whose flag is off fails as an unknown import does. Protocol 84's config has
// the five flags of 85 off but global_contract_host_fns (core/parameters/src/snapshots, 84 and 85).
t.test('a gated import links only while its flag is on', async (t) => {
  const run = (code: Uint8Array, cfg: VMConfig) =>
    runFunction({
      code,
      codeHash: freshHash(),
      methodName: 'f',
      context: makeContext({ chain_id: 'mainnet' }),
      config: cfg,
      fees,
      external: new MockExternal(),
    });
  for (const [name, gate] of Object.entries(HOST_FUNCTION_GATES)) {
    const d = IMPORT_TABLE[name]!;
    const params = d.params.join(' ');
    const result = d.result === null ? '' : `(result ${d.result})`;
    const code = await wat(
      `(module (import "env" "${name}" (func (param ${params}) ${result})) (memory 1) (func (export "f")))`,
    );
    t.same(
      run(code, { ...config, [gate]: false }).aborted,
      { LinkError: { msg: 'unknown or invalid import' } },
      `${name} with ${gate} off`,
    );
    t.equal(run(code, config).aborted, null, `${name} with ${gate} on`);
  }
  // One flag off leaves the functions of the others linked.
  const chainId = await wat(
    '(module (import "env" "chain_id" (func (param i64))) (memory 1) (func (export "f") (call 0 (i64.const 0))))',
  );
  t.equal(run(chainId, { ...config, p256_verify_host_fn: false, gas_key_host_fns: false }).aborted, null);
});

t.test("the sandbox's one import is nearcore's sandbox feature's", async (t) => {
  const sandbox = Object.entries(nearcore).filter(([, d]) => d.feature === 'sandbox');
  t.same(
    sandbox.map(([name]) => name),
    Object.keys(SANDBOX_IMPORT_TABLE),
  );
  for (const [name, d] of sandbox) t.same(signature(SANDBOX_IMPORT_TABLE[name]!), signature(d), name);
});

const logging = (message: string) => {
  const bytes = Buffer.from(message);
  return wat(`(module
    (import "env" "sandbox_debug_log" (func $log (param i64 i64)))
    (memory 1)
    (data (i32.const 16) "${[...bytes].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('')}")
    (func (export "log") (call $log (i64.const ${bytes.length}) (i64.const 16)))
    ;; Past the 64 MiB of memory every contract gets, whatever it declares.
    (func (export "outside") (call $log (i64.const 16) (i64.const 67108860))))`);
};

t.test('sandbox_debug_log: a link error unless offered', async (t) => {
  offerSandboxHostFunctions(null);
  const o = call({ code: await logging('hi'), codeHash: freshHash(), method: 'log' });
  t.ok(o.aborted !== null && 'LinkError' in o.aborted, 'a production node does not link it');
});

t.test('sandbox_debug_log: the message to the log, for no gas', async (t) => {
  const seen: string[] = [];
  offerSandboxHostFunctions((m) => seen.push(m));
  t.teardown(() => offerSandboxHostFunctions(null));
  const code = await logging('héllo from the contract');
  const o = call({ code, codeHash: freshHash(), method: 'log' });
  t.equal(o.aborted, null);
  t.same(seen, ['héllo from the contract']);
  t.same(o.logs, [], "not one of the outcome's logs");
  // Its host costs are a method's that calls nothing: the contract's loading alone.
  const idle = call({
    code: await wat(
      '(module (import "env" "sandbox_debug_log" (func $log (param i64 i64))) (memory 1) (func (export "log") (nop)))',
    ),
    codeHash: freshHash(),
    method: 'log',
  });
  const costs = (x: typeof o) => x.profile.extCosts().map(([c]) => c);
  t.same(costs(o), costs(idle));
  t.same(costs(o).sort(), ['contract_loading_base', 'contract_loading_bytes']);

  const bad = await wat(`(module
    (import "env" "sandbox_debug_log" (func $log (param i64 i64)))
    (memory 1)
    (data (i32.const 8) "\\ff\\fe")
    (func (export "bad_utf8") (call $log (i64.const 2) (i64.const 8))))`);
  t.same(call({ code: bad, codeHash: freshHash(), method: 'bad_utf8' }).aborted, { HostError: 'BadUTF8' });
  t.same(call({ code, codeHash: freshHash(), method: 'outside' }).aborted, {
    HostError: 'MemoryAccessViolation',
  });
  t.equal(seen.length, 1, 'the failed calls logged nothing');
});

// nearcore's runtime_errors.rs test_bad_import_4: `(module (import "env" "no-such-fn" (func $f))
// (export "main" (func $f)))` as the `wat` crate writes it (57 bytes: its name section names $f)
// burns 97,535,778 gas, the contract's loading, and fails to link.
t.test(
  "an unknown import: nearcore's LinkError, after the loading fee, before the method is looked up",
  async (t) => {
    const body = await wat('(module (import "env" "no-such-fn" (func $f)) (export "main" (func $f)))');
    const nameSection = [0x00, 0x0b, 0x04, ...Buffer.from('name'), 0x01, 0x04, 0x01, 0x00, 0x01, 0x66];
    const code = new Uint8Array([...body, ...nameSection]);
    t.equal(code.length, 57);
    const o = call({ code, codeHash: freshHash(), method: 'main' });
    t.same(o.aborted, { LinkError: { msg: 'unknown or invalid import' } });
    t.equal(o.burnt_gas, 97_535_778n);
    const missing = call({ code, codeHash: freshHash(), method: 'no_such_method' });
    t.same(missing.aborted, { LinkError: { msg: 'unknown or invalid import' } }, 'not MethodNotFound');
  },
);

t.test(
  "a known import of another signature: Wasmtime's message; an unknown one anywhere comes first",
  async (t) => {
    const mismatched = await wat(
      '(module (import "env" "log_utf8" (func (param i32 i64))) (memory 1) (func (export "f")))',
    );
    t.same(call({ code: mismatched, codeHash: freshHash(), method: 'f' }).aborted, {
      // The root cause wasmtime's `type_reference` gives (matching.rs), which into_vm_error keeps:
      // the module's declared type first, the host's second.
      LinkError: {
        msg: 'function types incompatible: expected type `(func (param i32 i64))`, found type `(func (param i64 i64))`',
      },
    });
    const wrongResult = await wat(
      '(module (import "env" "storage_write" (func (param i64 i64 i64 i64 i64))) (memory 1) (func (export "f")))',
    );
    t.same(call({ code: wrongResult, codeHash: freshHash(), method: 'f' }).aborted, {
      LinkError: {
        msg: 'function types incompatible: expected type `(func (param i64 i64 i64 i64 i64))`, found type `(func (param i64 i64 i64 i64 i64) (result i64))`',
      },
    });
    const both = await wat(`(module
    (import "env" "log_utf8" (func (param i32 i64)))
    (import "env" "nope" (func))
    (memory 1) (func (export "f")))`);
    t.same(call({ code: both, codeHash: freshHash(), method: 'f' }).aborted, {
      LinkError: { msg: 'unknown or invalid import' },
    });
    const fine = await wat(
      '(module (import "env" "log_utf8" (func (param i64 i64))) (import "env" "gas" (func (param i32))) (memory 1) (func (export "f")))',
    );
    t.equal(call({ code: fine, codeHash: freshHash(), method: 'f' }).aborted, null);
  },
);
