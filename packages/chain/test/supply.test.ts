// The supply a block header states is the money on its chain. Random transactions between accounts
// on four shards (transfers, account creations and deletions with beneficiaries elsewhere, key
// changes, failing calls, refunds crossing back) run through the chain's own block production, with
// a small chunk gas limit so receipts wait in delayed queues. After every block, the header's
// total_supply (nearcore's block.rs: the previous supply, plus what is minted, minus what the
// block's chunks burnt) equals what the state of every shard holds (balances, locked, gas keys)
// plus what receipts carry while no account holds it: those the block's chunks sent to the next
// ones, and those delayed, postponed or yielded in a shard's trie (balance_checker's receipt_cost);
// and every account's storage_usage is what its records add up to.
// Then contracts on every shard park yields and resume some: each shard keeps its own yield queue,
// and every yield is resumed or times out on its own shard.
import { sha256 } from '@nearlite/primitives';
import { Store } from '@nearlite/store';
import { TrieKeyCol } from '@nearlite/trie';
import t from 'tap';
import { openProtocol86Chain } from '../../../test/helpers/protocol86_chain.js';
import { rng } from '../../../test/helpers/rng.js';
import { wat } from '../../../test/helpers/wat.js';
import {
  deployToUsers,
  keyNonce,
  keysLeft,
  keysOf,
  produceCheckingSupply,
  Sender,
  USERS,
  withUsers,
} from './four_shards.js';

t.test('every header’s total_supply is the money on the chain, on four shards', async (t) => {
  const random = rng(Number(process.env.SUPPLY_FUZZ_SEED ?? 5));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const { raw, signer } = withUsers();
  const r = raw as typeof raw & { gas_limit: number };
  r.gas_limit = 3_000_000_000_000; // a few receipts a chunk: the rest are delayed
  const chain = await openProtocol86Chain(raw, signer, await Store.memory());
  const shards = new Set(USERS.map((id) => chain.layout.accountIdToShardId(id)));
  t.equal(shards.size, 4, 'the accounts live on every shard');

  // Every account signs with the validator's key; a sub-account is given it when it is created.
  const sender = new Sender(chain, signer);
  const send = sender.send.bind(sender);
  const live = new Set(USERS);
  let seq = 0;

  let delayedSeen = false;
  const created = new Set<string>();
  const deleted = new Set<string>();
  for (let block = 0; block < 40; block++) {
    for (let n = 0; n < 6; n++) {
      const signerId = pick([...live]);
      const amount = BigInt(Math.floor(random() * 5e6)) * 10n ** 18n;
      const roll = random();
      const anyone = [...USERS, ...created, 'ghost.near'];
      if (roll < 0.45) send(signerId, pick(anyone), [{ type: 'Transfer', deposit: amount }]);
      else if (roll < 0.6) {
        // A sub-account is on its parent's shard or another, as the layout puts it.
        const id = `s${seq++}.${signerId}`;
        created.add(id);
        send(signerId, id, [
          { type: 'CreateAccount' },
          { type: 'Transfer', deposit: amount },
          {
            type: 'AddKey',
            publicKey: signer.publicKey,
            accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
          },
        ]);
      } else if (roll < 0.7 && !USERS.includes(signerId)) {
        send(signerId, signerId, [{ type: 'DeleteAccount', beneficiaryId: pick(anyone) }]);
      } else if (roll < 0.85) {
        send(signerId, pick(anyone), [
          {
            type: 'FunctionCall',
            methodName: 'go',
            args: new Uint8Array(8),
            gas: 5n * 10n ** 12n,
            deposit: amount,
          },
        ]);
      } else {
        send(signerId, signerId, [
          {
            type: 'AddKey',
            publicKey: { ...signer.publicKey, data: sha256(Uint8Array.of(seq++)) },
            accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
          },
          { type: 'Transfer', deposit: amount },
        ]);
      }
    }
    const { header, mismatch } = await produceCheckingSupply(chain);
    if (mismatch) {
      t.fail(mismatch);
      return;
    }
    for (const chunk of chain.chainStore.blockChunkHeaders(header.hash)!)
      if (chunk.inner.congestionInfo.delayedReceiptsGas > 0n) delayedSeen = true;
    // Accounts come and go by the chain's own state; a deleted one signs no more.
    for (const id of created) {
      const nonce = keyNonce(chain, id, signer.publicKey, header.hash);
      if (nonce !== undefined) {
        if (!live.has(id)) sender.nonces.set(id, nonce);
        live.add(id);
      } else if (live.has(id)) {
        live.delete(id);
        deleted.add(id);
        sender.nonces.delete(id);
      }
    }
  }
  t.pass('after each of 40 blocks, the header’s total_supply was the money on the chain');
  t.ok(delayedSeen, 'receipts waited in a delayed queue');
  t.ok(
    created.size > 0 && deleted.size > 0,
    `accounts were created (${created.size}) and deleted (${deleted.size})`,
  );
});

/**
 * y parks a call of cb (its id kept under "id"), r resumes the id kept, cb does nothing: every yield
 * is resumed by a later r or times out.
 */
const YIELDER = wat(`(module
  (import "env" "promise_yield_create" (func $create (param i64 i64 i64 i64 i64 i64 i64) (result i64)))
  (import "env" "promise_yield_resume" (func $resume (param i64 i64 i64 i64) (result i32)))
  (import "env" "storage_write" (func $write (param i64 i64 i64 i64 i64) (result i64)))
  (import "env" "storage_read" (func $read (param i64 i64 i64) (result i64)))
  (import "env" "read_register" (func $reg (param i64 i64)))
  (memory 1)
  (data (i32.const 0) "cb")
  (data (i32.const 8) "id")
  (func (export "y")
    (drop (call $create (i64.const 2) (i64.const 0) (i64.const 0) (i64.const 0)
      (i64.const 5000000000000) (i64.const 0) (i64.const 1)))
    (drop (call $write (i64.const 2) (i64.const 8) (i64.const -1) (i64.const 1) (i64.const 0))))
  (func (export "r")
    (if (i64.eq (call $read (i64.const 2) (i64.const 8) (i64.const 2)) (i64.const 1))
      (then
        (call $reg (i64.const 2) (i64.const 100))
        (drop (call $resume (i64.const 32) (i64.const 100) (i64.const 0) (i64.const 0))))))
  (func (export "cb")))`);

t.test('yields on four shards: each shard keeps, resumes and times out its own', async (t) => {
  const random = rng(Number(process.env.SUPPLY_FUZZ_SEED ?? 5));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const { raw, signer } = withUsers();
  // One epoch for the whole run: no reward is minted.
  (raw as typeof raw & { epoch_length: number }).epoch_length = 1000;
  const chain = await openProtocol86Chain(raw, signer, await Store.memory(), { vm: true });
  const sender = new Sender(chain, signer);
  t.ok(await deployToUsers(chain, sender, await YIELDER), 'every account has the contract');

  const parked = (blockHash: Uint8Array) =>
    chain.layout.shardIds.map(
      (shardId) => keysOf(chain, blockHash, shardId, TrieKeyCol.PromiseYieldReceipt).length,
    );
  const shardsWithYields = new Set<number>();
  let before = 0;
  let resumed = false;
  const check = async (label: string): Promise<boolean> => {
    const { header, mismatch } = await produceCheckingSupply(chain);
    if (mismatch) {
      t.fail(`${label}, ${mismatch}`);
      return false;
    }
    const now = parked(header.hash);
    for (const [shardId, n] of now.entries()) if (n > 0) shardsWithYields.add(shardId);
    // Fewer parked than a block before, long before any timeout: a resume ran.
    const total = now.reduce((a, b) => a + b, 0);
    if (total < before && header.lite.height < 150) resumed = true;
    before = total;
    return true;
  };
  for (let block = 0; block < 30; block++) {
    for (let n = 0; n < 6; n++) {
      const method = random() < 0.6 ? 'y' : 'r';
      const deposit = BigInt(Math.floor(random() * 1e6)) * 10n ** 18n;
      sender.send(pick(USERS), pick(USERS), [
        { type: 'FunctionCall', methodName: method, args: new Uint8Array(0), gas: 30n * 10n ** 12n, deposit },
      ]);
    }
    if (!(await check(`block ${block}`))) return;
  }
  t.equal(shardsWithYields.size, 4, 'every shard held parked yields');
  t.ok(resumed, 'some were resumed');
  t.ok(before > 0, `${before} are left to time out`);
  // The timeout is 200 blocks: past it, every yield has been resumed or has timed out on its shard.
  for (let n = 0; n < 210; n++) if (!(await check(`drain ${n}`))) return;
  t.same(parked(chain.head().hash), [0, 0, 0, 0], 'no yield is left parked on any shard');
  const left = keysLeft(chain, chain.head().hash, [
    TrieKeyCol.PromiseYieldTimeout,
    TrieKeyCol.PromiseYieldStatus,
    TrieKeyCol.DelayedReceiptOrIndices,
  ]);
  t.same(left, [], 'nor a timeout, a yield status or a delayed receipt');
  t.pass('the supply added up after every block');
});
