// `node bench/src/vm.js`: VM figures in-process: compile + prepare + cache of the NEP-21 token,
// view calls on the cached module, and the cost of one host call.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256, utf8 } from '@nearlite/primitives';
import { DEFAULT_RUNTIME_CONFIG_VIEW, parseRuntimeConfig, viewCall } from '@nearlite/runtime';
import { trieKeyContractCode } from '@nearlite/trie';
import { ContractCache } from '@nearlite/vm';
import wabt from 'wabt';
import { ensureContract } from '../../scripts/fetch-contracts.mjs';

const config = parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW);
const codeKeyHex = (id) => Buffer.from(trieKeyContractCode(id)).toString('hex');

function viewer(id, code) {
  const key = codeKeyHex(id);
  const state = { get: (k) => (Buffer.from(k).toString('hex') === key ? code : undefined) };
  const account = { amount: 10n ** 24n, locked: 0n, codeHash: sha256(code), storageUsage: 1000n };
  return (cache, method, args) => {
    try {
      return viewCall({
        config,
        state,
        accountId: id,
        account,
        methodName: method,
        args,
        blockHeight: 1,
        blockHash: 'x',
        blockTimestamp: 1n,
        epochHeight: 1,
        chainId: 'test',
        validators: new Map(),
        cache,
      });
    } catch (e) {
      return e;
    }
  };
}

const ft = new Uint8Array(readFileSync(ensureContract('fungible_token.wasm')));
const call = viewer('token.near', ft);
const args = utf8(JSON.stringify({ owner_id: 'a.near' }));
// Compile + prepare (validation, memory import, gas metering) + cache, then the first call.
const compiles = [];
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  call(new ContractCache(), 'get_total_supply', utf8('{}'));
  compiles.push(performance.now() - t0);
}
const cache = new ContractCache();
call(cache, 'get_total_supply', utf8('{}'));
let n = 0;
const t0 = performance.now();
while (performance.now() - t0 < 3000) {
  call(cache, 'get_balance', args);
  n++;
}
const viewsPerSec = Math.round(n / 3);

// Host-call cost: a contract calling block_index in a loop, timed at 1 and 100,001 calls.
const w = await wabt();
const wat = (iters) => `(module (import "env" "block_index" (func $bi (result i64)))
  (func (export "run") (local $i i32) (loop $l (drop (call $bi)) (local.set $i (i32.add (local.get $i) (i32.const 1))) (br_if $l (i32.lt_u (local.get $i) (i32.const ${iters}))))))`;
const timeRuns = (iters) => {
  const code = w.parseWat('h.wat', wat(iters)).toBinary({}).buffer;
  const c = new ContractCache();
  const run = viewer('h.near', code);
  run(c, 'run', new Uint8Array(0));
  const s = performance.now();
  for (let i = 0; i < 20; i++) run(c, 'run', new Uint8Array(0));
  return (performance.now() - s) / 20;
};
const nsPerHostCall = Math.round(((timeRuns(100_001) - timeRuns(1)) / 100_000) * 1e6);

const result = {
  date: new Date().toISOString(),
  ftCompilePrepareCacheMs: compiles.map((x) => Math.round(x)),
  viewCallsPerSecCachedModule: viewsPerSec,
  nsPerHostCall,
};
mkdirSync(join(import.meta.dirname, '..', 'results'), { recursive: true });
writeFileSync(join(import.meta.dirname, '..', 'results', 'vm.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(result);
