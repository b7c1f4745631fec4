import t from 'tap';
import { compileAssemblyScript } from '../../../test/helpers/asc.js';
import { call, freshHash, MockExternal, returned, text } from './helpers.js';

// An AssemblyScript 0.28 contract with hand-declared NEAR imports (clients-and-contracts.md §4),
// compiled once for this file; `abort` stays imported so assertion failures reach the host.
const source = `
@external("env", "storage_write") declare function storage_write(kl: u64, kp: u64, vl: u64, vp: u64, r: u64): u64;
@external("env", "storage_read") declare function storage_read(kl: u64, kp: u64, r: u64): u64;
@external("env", "register_len") declare function register_len(r: u64): u64;
@external("env", "read_register") declare function read_register(r: u64, p: u64): void;
@external("env", "value_return") declare function value_return(l: u64, p: u64): void;
@external("env", "log_utf8") declare function log_utf8(l: u64, p: u64): void;

const KEY = String.UTF8.encode("counter");

function readCounter(): i32 {
  if (storage_read(KEY.byteLength, changetype<usize>(KEY), 0) == 0) return 0;
  const buf = new ArrayBuffer(<i32>register_len(0));
  read_register(0, changetype<usize>(buf));
  return load<i32>(changetype<usize>(buf));
}

export function increment(): void {
  const buf = new ArrayBuffer(4);
  store<i32>(changetype<usize>(buf), readCounter() + 1);
  storage_write(KEY.byteLength, changetype<usize>(KEY), 4, changetype<usize>(buf), 0);
  const msg = String.UTF8.encode("incremented");
  log_utf8(msg.byteLength, changetype<usize>(msg));
}

export function get(): void {
  const s = String.UTF8.encode(readCounter().toString());
  value_return(s.byteLength, changetype<usize>(s));
}

export function fail(): void {
  assert(false, "counter broke");
}
`;

const code = await compileAssemblyScript(
  { 'assembly/index.ts': source },
  { optimizeLevel: 3, runtime: 'stub', noAssert: false, bindings: [] },
);
const hash = freshHash();

t.test('an AssemblyScript counter', async (t) => {
  const ext = new MockExternal();
  const a = call({ code, codeHash: hash, method: 'increment', external: ext });
  t.equal(a.aborted, null);
  t.same(a.logs, ['incremented']);
  call({ code, codeHash: hash, method: 'increment', external: ext });
  t.equal(text(returned(call({ code, codeHash: hash, method: 'get', external: ext }))), '2');
});

t.test("abort is a GuestPanic with nearcore's message", async (t) => {
  const out = call({ code, codeHash: hash, method: 'fail' });
  t.ok(out.aborted !== null && 'HostError' in out.aborted);
  const panic = out.aborted as { HostError: { GuestPanic: { panic_msg: string } } };
  t.match(
    panic.HostError.GuestPanic.panic_msg,
    /^counter broke, filename: "assembly\/index\.ts" line: \d+ col: \d+$/,
  );
  t.same(out.logs, [`ABORT: ${panic.HostError.GuestPanic.panic_msg}`]);
});
