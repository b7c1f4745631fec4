// Money and storage under receipts that contracts send: three contracts run random programs
// (fixtures/actor.as.ts) that create promise batches of every action a contract may send, chain them
// with callbacks, join them, panic after scheduling, write and remove storage, yield and resume, and
// call each other with more programs as arguments. After every block: balances + locked + burnt + the
// value of every receipt in flight, delayed, waiting for data or yielded is what it was at the start,
// and each account's storage_usage is what its records add up to by nearcore's storage rules. Once
// everything settles and the last yields time out, no receipt is left waiting for data that will
// never come.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeAccount } from '@nearlite/primitives';
import type { ExecutionOutcome } from '@nearlite/runtime';
import { TrieKeyCol } from '@nearlite/trie';
import t from 'tap';
import { CONTRACT_OPTIONS, compileAssemblyScript } from '../../../test/helpers/asc.js';
import { config, type Key, keyFromSeed, NEAR, signTx, TestChain, vmRuntime } from './helpers.js';
import { hexCol, inFlight, rng } from './in_flight.js';
import { storageMismatch } from './storage_records.js';

const source = readFileSync(join(import.meta.dirname, 'fixtures', 'actor.as.ts'), 'utf8');
const ACTOR = await compileAssemblyScript({ 'assembly/actor.ts': source }, CONTRACT_OPTIONS);

const u16 = (n: number) => [n & 0xff, n >> 8];
function u128(v: bigint): number[] {
  const out: number[] = [];
  for (let i = 0; i < 16; i++) out.push(Number((v >> BigInt(8 * i)) & 0xffn));
  return out;
}

/** A staking key: any real ed25519 public key is a point on the curve. */
const STAKING_KEY = [...keyFromSeed(50).publicKey.data];

/**
 * A random program of the actor's ops, for the contract `runner` (0–2, or -1 where no actor runs it).
 * A batch's target is mostly a contract, sometimes a user, the missing account, a sub-account or the
 * runner itself; function calls carry programs of their own, `depth` deep. Only c2 may delete itself,
 * so the other two keep running programs to the end.
 */
function program(random: () => number, runner: number, depth: number): number[] {
  const int = (n: number) => Math.floor(random() * n);
  const amount = (): bigint => {
    const r = random();
    if (r < 0.3) return 0n;
    if (r < 0.9) return BigInt(int(2_000_000)) * 10n ** 18n; // up to 2 NEAR
    if (r < 0.97) return BigInt(int(500)) * NEAR; // more than any account holds, mostly
    return 1n;
  };
  const out: number[] = [];
  let target = -2; // the contract (0–2) the latest batch goes to; -1 for any other account
  for (let n = 1 + int(6); n > 0; n--) {
    const r = random();
    if ((target === -2 || r < 0.15) && depth > 0 && random() < 0.25) {
      // promise_create or promise_then: a new receipt that calls `run` with a program of its own.
      const a = random() < 0.7 ? int(3) : 3 + int(5);
      const callee = a < 3 ? a : a === 7 ? runner : -1;
      const args = program(random, callee, depth - 1);
      const gas = int(4) === 0 ? 0 : 2 + int(60);
      out.push(
        target !== -2 && random() < 0.4 ? 0x28 : 0x27,
        a,
        gas,
        ...u128(amount()),
        ...u16(args.length),
        ...args,
      );
      target = callee;
    } else if (target === -2 || r < 0.15) {
      const a = random() < 0.6 ? int(3) : random() < 0.4 ? 7 : 3 + int(4);
      out.push(target !== -2 && random() < 0.4 ? 0x02 : 0x01, a);
      target = a < 3 ? a : a === 7 ? runner : -1;
      // Creating a sub-account and staking need their batch's receiver to be just so: give them a push.
      // The next op starts a new batch, so nothing after it in this one (a call to the new account,
      // which has no code) rolls the creation back.
      if (a === 5 && random() < 0.5) {
        out.push(0x11, 0x10, ...u128(NEAR));
        target = -2;
      }
      if (a === 7 && random() < 0.2) out.push(0x18, ...u128(NEAR), ...STAKING_KEY);
    } else if (r < 0.2) out.push(0x03);
    else if (r < 0.45) out.push(0x10, ...u128(amount()));
    else if (r < 0.65 && depth > 0) {
      const args = program(random, target, depth - 1);
      out.push(0x12, int(4) === 0 ? 0 : 2 + int(60), int(3), ...u128(amount()), ...u16(args.length), ...args);
    } else if (r < 0.7) out.push(0x11);
    else if (r < 0.74) out.push(0x13, int(4));
    else if (r < 0.77) out.push(0x14, int(4), ...u128(BigInt(int(3)) * 10n ** 18n).slice(0, 8));
    else if (r < 0.8) out.push(0x15, int(4));
    else if (r < 0.82 && (target !== runner || runner === 2 || runner === -1)) out.push(0x16, 3 + int(5));
    else if (r < 0.83 && target !== runner) out.push(0x17);
    else if (r < 0.86) out.push(0x18, ...u128(BigInt(int(3)) * NEAR), ...STAKING_KEY);
    else if (r < 0.9) out.push(0x20, ...u16(int(3) === 0 ? int(20_000) : int(300)));
    else if (r < 0.92) out.push(0x21, int(5));
    else if (r < 0.935) out.push(0x22);
    else if (r < 0.95) out.push(0x23);
    else if (r < 0.965 && runner >= 0) {
      // The yielded callback runs on the runner, which is where later batch actions then go.
      const args = depth > 0 ? program(random, runner, depth - 1) : [];
      out.push(0x25, 2 + int(30), int(3), ...u16(args.length), ...args);
      target = runner;
    } else if (r < 0.99) {
      const n = int(40);
      out.push(0x26, ...u16(n), ...Array.from({ length: n }, () => int(256)));
    } else out.push(target === -2 ? 0x24 : 0x04);
  }
  return out;
}

t.test('contract-sent receipts conserve money and storage, block after block', async (t) => {
  const random = rng(Number(process.env.PROMISE_FUZZ_SEED ?? 7));
  const c = new TestChain(vmRuntime());
  c.gasLimit = 8_000_000_000_000n; // a few calls' worth: busy blocks delay receipts
  const users: [string, Key][] = [
    ['u0.near', keyFromSeed(30)],
    ['u1.near', keyFromSeed(31)],
  ];
  const contracts = ['c0.near', 'c1.near', 'c2.near'];
  for (const [id, key] of users) c.addAccount(id, 1000n * NEAR, key);
  for (const [i, id] of contracts.entries()) c.addAccount(id, 100n * NEAR, keyFromSeed(40 + i));
  const initial = c.totalBalance();
  const nonces = new Map<string, bigint>();
  const nextNonce = (id: string) => {
    const n = (nonces.get(id) ?? 0n) + 1n;
    nonces.set(id, n);
    return n;
  };
  c.block(
    contracts.map(
      (id, i) =>
        signTx(keyFromSeed(40 + i), id, id, nextNonce(id), [{ type: 'DeployContract', code: ACTOR }]).bytes,
    ),
  );

  const seen = {
    success: 0,
    failure: 0,
    postponed: 0,
    yielded: 0,
    resumed: 0,
    timedOut: 0,
    delayed: 0,
    created: new Set<string>(),
    locked: false,
  };
  const tally = (outcomes: readonly ExecutionOutcome[]) => {
    for (const o of outcomes) {
      if (o.status.kind === 'Failure') seen.failure++;
      else seen.success++;
      if (o.logs.includes('resumed 1')) seen.resumed++;
    }
  };
  const check = (label: string): boolean => {
    const flight = inFlight(c);
    seen.postponed = Math.max(seen.postponed, flight.postponed);
    seen.yielded = Math.max(seen.yielded, flight.yielded);
    const total = c.totalBalance() + c.burnt + flight.value;
    if (total !== initial) {
      t.fail(`${label}: balances + burnt + in flight ${total} !== ${initial} (diff ${total - initial})`);
      return false;
    }
    const mismatch = storageMismatch(() => c.stateEntries());
    if (mismatch !== null) {
      t.fail(`${label}: ${mismatch}`);
      return false;
    }
    for (const [k, v] of c.state) {
      if (!k.startsWith(hexCol(TrieKeyCol.Account))) continue;
      const id = Buffer.from(k, 'hex').subarray(1).toString('utf8');
      if (decodeAccount(v).locked > 0n) seen.locked = true;
      if (id.startsWith('k.')) seen.created.add(id);
    }
    return true;
  };

  for (let block = 0; block < 60; block++) {
    const txs: Uint8Array[] = [];
    for (let n = 0; n < 3; n++) {
      const [signer, key] = users[Math.floor(random() * users.length)]!;
      const runner = Math.floor(random() * contracts.length);
      const receiver = contracts[runner]!;
      const args = Uint8Array.from(program(random, runner, 2));
      const deposit = random() < 0.5 ? 0n : BigInt(Math.floor(random() * 5_000_000)) * 10n ** 18n;
      const gas = BigInt(20 + Math.floor(random() * 281)) * 10n ** 12n;
      txs.push(
        signTx(key, signer, receiver, nextNonce(signer), [
          { type: 'FunctionCall', methodName: 'run', args, gas, deposit },
        ]).bytes,
      );
    }
    // The price moves as a chain's does, so receipts are burnt at another price than they were bought.
    c.gasPrice = 100_000_000n + BigInt(Math.floor(random() * 20_000_000));
    const { res, outcomes } = c.block(txs);
    seen.delayed = Math.max(seen.delayed, res.delayedReceipts);
    tally(outcomes);
    if (!check(`block ${block}`)) return;
  }
  // One yield nobody resumes, whatever the seed: the drain below then always sees a timeout.
  const [signer, key] = users[0]!;
  const { outcomes } = c.block([
    signTx(key, signer, contracts[1]!, nextNonce(signer), [
      {
        type: 'FunctionCall',
        methodName: 'run',
        args: Uint8Array.of(0x25, 5, 1, 0, 0),
        gas: 30n * 10n ** 12n,
        deposit: 0n,
      },
    ]).bytes,
  ]);
  tally(outcomes);
  if (!check('the last yield')) return;
  t.pass("after each of 61 blocks, money and every account's storage_usage added up");
  // Yields still parked wait for their timeout, whose callbacks send receipts of their own. A hundred
  // blocks on, everything the transactions sent has run and none of their yields has timed out yet
  // (the timeout is 200 blocks): those still parked then are the ones that time out.
  const timeoutsFrom = c.height + 100;
  t.ok(
    c.height + 100 < Number(config.wasm.limit_config.yield_timeout_length_in_blocks),
    'no yield timed out yet',
  );
  const parked = [TrieKeyCol.PromiseYieldTimeout, TrieKeyCol.PromiseYieldReceipt].map(hexCol);
  const busy = (delayed: number) =>
    c.pending.length > 0 ||
    delayed > 0 ||
    [...c.state.keys()].some((k) => parked.some((p) => k.startsWith(p)));
  // A yield's callback may yield again, three deep at most: 1,000 blocks outlast them all.
  for (let n = 0, delayed = 1; n < 1_000 && busy(delayed); n++) {
    const { res, outcomes } = c.block();
    delayed = res.delayedReceipts;
    tally(outcomes);
    if (c.height === timeoutsFrom) seen.timedOut = inFlight(c).yielded;
  }
  if (!check('settled')) return;
  t.equal(c.pending.length, 0, 'nothing is in flight once settled');
  const left = [
    TrieKeyCol.ReceivedData,
    TrieKeyCol.PostponedReceiptId,
    TrieKeyCol.PendingDataCount,
    TrieKeyCol.PostponedReceipt,
    TrieKeyCol.PromiseYieldTimeout,
    TrieKeyCol.PromiseYieldReceipt,
    TrieKeyCol.PromiseYieldStatus,
    TrieKeyCol.YieldIdToDataId,
    TrieKeyCol.DataIdToYieldId,
  ].flatMap((col) => [...c.state.keys()].filter((k) => k.startsWith(hexCol(col))));
  t.same(left, [], 'no receipt or data is left waiting once everything settled');
  t.equal(c.totalBalance() + c.burnt, initial, 'settled balances + burnt = the start');
  t.comment(JSON.stringify({ ...seen, created: [...seen.created] }));
  t.ok(seen.success > 100 && seen.failure > 50, 'receipts both succeeded and failed');
  t.ok(seen.postponed > 0, 'callbacks waited for data');
  t.ok(seen.delayed > 0, 'busy blocks delayed receipts');
  t.ok(seen.created.size > 0, 'contracts created sub-accounts');
  t.ok(seen.locked, 'a contract staked');
  t.ok(seen.yielded > 0 && seen.resumed > 0, 'contracts yielded, and resumed some');
  t.ok(seen.timedOut > 0, 'some yields timed out');
});
