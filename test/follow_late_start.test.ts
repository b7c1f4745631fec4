// A follower whose source begins after the genesis holds only the state changed since: what it
// cannot tell (a key no followed block touched, a scan, a view call reading such a key) is asked of
// --upstream-rpc at the same block, or answered as an error; never as the genesis' value or as absent.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STATE_FROM_KEY } from '@nearlite/follower';
import { DBCol, Store, StoreUpdate } from '@nearlite/store';
import { actions as A } from 'near-api-js';
import t from 'tap';
import { deployedAccount, localChain } from './helpers/chain.js';
import { cli, initHome, type RunningNode, startNode, waitForHeight } from './helpers/node.js';
import { signFromValidator } from './helpers/signed_tx.js';
import { streamActivity } from './helpers/stream_activity.js';
import { wat } from './helpers/wat.js';

const STAKE_CONTRACT = `(module
  (import "env" "validator_total_stake" (func $total (param i64)))
  (import "env" "value_return" (func $return (param i64 i64)))
  (memory (export "memory") 1)
  (data (i32.const 100) "pong")
  (func (export "total") (call $total (i64.const 0)) (call $return (i64.const 16) (i64.const 0)))
  (func (export "ping") (call $return (i64.const 4) (i64.const 100))))`;

const NOT_HELD =
  /^the state at block #\d+ is not held here: this node follows a block stream from block #(\d+) on/;

async function finalHeight(node: RunningNode): Promise<number> {
  const { body } = await node.rpc<{ header: { height: number } }>('block', { finality: 'final' });
  return body.result!.header.height;
}

t.test('a follower that starts after the genesis serves only the state it holds', async (t) => {
  // Epochs of 10 blocks: the window lies epochs past the first two, where the validators' stakes
  // have grown by their rewards, which the stream does not carry.
  const chain = await localChain(t, { blockTimeMs: 50, archive: true, epochLength: 10 });
  // hello.test.near: created, deployed and given state before the window the follower gets.
  await streamActivity(chain);
  await waitForHeight(chain.node, (await finalHeight(chain.node)) + 3, 30_000, 'final');
  const from = (await finalHeight(chain.node)) + 1;
  await waitForHeight(chain.node, from + 2, 30_000, 'final');
  // In the window: test.near pays hello.test.near, whose account changes; its code and state do not.
  await chain.root.transfer({ receiverId: 'hello.test.near', amount: 5n });
  // And stake.test.near is made, with a contract that reads the validators' total stake, or not.
  await deployedAccount(chain, 'stake.test.near', await wat(STAKE_CONTRACT), 5n * 10n ** 24n);
  await waitForHeight(chain.node, (await finalHeight(chain.node)) + 3, 30_000, 'final');
  t.equal(await chain.node.stop(), 0);

  const lake = join(chain.home, 'lake');
  const exported = cli(['lake-export', '--home', chain.home, '--out', lake, '--from', String(from)]);
  t.equal(exported.status, 0, exported.stderr);
  const home = join(chain.home, 'follower');
  initHome(home, ['--genesis', join(chain.home, 'genesis.json')]);
  const follow = ['--follow', `file:${lake}`, '--archive'];
  const last = Math.max(
    ...readdirSync(lake)
      .filter((d) => /^\d+$/.test(d))
      .map(Number),
  );
  let follower = await startNode(home, follow);
  await waitForHeight(follower, last, 60_000);
  // The producer again, to answer the same questions (its new blocks lie above `last`).
  const producer = await startNode(chain.home, ['--block-time', '60000', '--archive']);
  t.teardown(() => producer.stop());

  const at = { block_id: last };
  const q = (params: object) => ({ ...params, ...at });
  const account = (id: string) => q({ request_type: 'view_account', account_id: id });
  const stakeCall = (method_name: string) =>
    q({ request_type: 'call_function', account_id: 'stake.test.near', method_name, args_base64: '' });
  // Made in the window, its code runs here; a call that reads no stake needs nothing else.
  const held = [
    account('test.near'),
    account('hello.test.near'),
    stakeCall('ping'),
    // test.near's held account names no code: there is none to read, held or not.
    q({ request_type: 'view_code', account_id: 'test.near' }),
    q({ request_type: 'call_function', account_id: 'test.near', method_name: 'x', args_base64: '' }),
  ];
  const notHeld = [
    account('nobody.test.near'),
    q({ request_type: 'view_code', account_id: 'hello.test.near' }),
    q({ request_type: 'view_state', account_id: 'hello.test.near', prefix_base64: '' }),
    q({ request_type: 'view_access_key_list', account_id: 'hello.test.near' }),
    // The account row is held (the transfer), the code and the value the call reads are not: the view
    // worker's read of them is refused on the main thread.
    q({
      request_type: 'call_function',
      account_id: 'hello.test.near',
      method_name: 'getValue',
      args_base64: '',
    }),
  ];

  for (const params of held) {
    const mine = await follower.rpc('query', params);
    const theirs = await producer.rpc('query', params);
    t.same(mine.body.result, theirs.body.result, `${JSON.stringify(params)}: changed in the window, held`);
    t.same(mine.body.error, theirs.body.error, 'and its error, if any');
  }
  for (const params of notHeld) {
    const mine = await follower.rpc<never>('query', params);
    const error = mine.body.error as { cause: { name: string; info: { error_message: string } } } | undefined;
    t.equal(error?.cause.name, 'INTERNAL_ERROR', `${JSON.stringify(params)}: not held`);
    t.equal(
      error?.cause.info.error_message.match(NOT_HELD)?.[1],
      String(from),
      'names where the state begins',
    );
  }
  // The stakes have grown since the genesis; the follower cannot work them out from the window.
  const total = await follower.rpc<never>('query', stakeCall('total'));
  t.match(
    JSON.stringify(total.body.error),
    /the validators' stakes at block #\d+ are not known here/,
    'a call reading the stakes is refused, not answered with the genesis stakes',
  );
  const theirs = await producer.rpc<{ result: number[] }>('query', stakeCall('total'));
  const genesisTotal = (
    JSON.parse(readFileSync(join(chain.home, 'genesis.json'), 'utf8')) as {
      validators: { amount: string }[];
    }
  ).validators.reduce((sum, v) => sum + BigInt(v.amount), 0n);
  const u128 = (bytes: number[]) =>
    Buffer.from(bytes).readBigUInt64LE(0) + (Buffer.from(bytes).readBigUInt64LE(8) << 64n);
  t.ok(u128(theirs.body.result!.result) > genesisTotal, 'the producer’s stakes grew since the genesis');
  // `tx` of a signed transaction no followed block holds: nearcore's check at the head (test.near's
  // account and key changed in the window, so they are held).
  const belowWindow = await producer.rpc<{ header: { hash: string } }>('block', { block_id: from - 1 });
  const headOfWindow = await producer.rpc<{ header: { hash: string } }>('block', { block_id: last });
  const checks = {
    'a block below the window, within the validity period': await signFromValidator(
      producer,
      chain.key,
      'test.near',
      [A.transfer(1n)],
      undefined,
      belowWindow.body.result!.header.hash,
    ),
    'a nonce used already': await signFromValidator(
      producer,
      chain.key,
      'test.near',
      [A.transfer(1n)],
      1n,
      headOfWindow.body.result!.header.hash,
    ),
  };
  for (const [what, signed] of Object.entries(checks)) {
    const params = { signed_tx_base64: signed.base64, wait_until: 'NONE' };
    const mine = await follower.rpc('tx', params);
    const theirs = await producer.rpc('tx', params);
    t.ok(theirs.body.error, `${what}: the producer answers an error`);
    t.same(mine.body.error, theirs.body.error, `${what}: as the producer answers`);
  }
  // The genesis records put test.near's key in the state; the follower does not answer from them.
  const genesisKey = await follower.rpc<never>(
    'query',
    q({ request_type: 'view_access_key_list', account_id: 'test.near' }),
  );
  t.match(
    JSON.stringify(genesisKey.body.error),
    /not held here/,
    "the genesis' access keys are not this block's",
  );
  await follower.stop();
  // `inspect` on the stopped home says the same.
  const followed = cli(['inspect', '--home', home, 'follow']);
  t.equal(JSON.parse(followed.stdout).state_held_from, from, 'inspect follow: where the state is held from');
  const inspected = cli(['inspect', '--home', home, 'account', 'nobody.test.near']);
  t.equal(inspected.status, 1);
  t.match(inspected.stderr, `is not held: this history follows its chain from #${from}`);
  const heldAccount = cli(['inspect', '--home', home, 'account', 'hello.test.near']);
  t.equal(heldAccount.status, 0, heldAccount.stderr);
  // So does the example a tool author starts from.
  const example = execFileSync(
    process.execPath,
    [join(import.meta.dirname, '..', 'examples', 'read-follower-home.mjs'), home, 'hello.test.near'],
    { encoding: 'utf8' },
  );
  t.match(example, `contract state not held (the state is held from #${from})`);

  // A history made before the mark existed has none: an archival follower works it out at start.
  const store = await Store.open(join(home, 'data'));
  await store.commit(new StoreUpdate().delete(DBCol.FollowerMisc, STATE_FROM_KEY));
  await store.close();

  // With the producer as its upstream, every one of them is the producer's answer at that block.
  follower = await startNode(home, [...follow, '--upstream-rpc', producer.url]);
  t.teardown(() => follower.stop());
  t.match(follower.logs(), `its state is held from #${from} on`);
  const [mineStatus, theirStatus] = await Promise.all([
    follower.rpc('status', []),
    producer.rpc('status', []),
  ]);
  const genesisHash = (s: typeof mineStatus) => (s.body.result as { genesis_hash: string }).genesis_hash;
  t.equal(genesisHash(mineStatus), genesisHash(theirStatus), "status: the upstream's genesis hash");
  for (const params of [...held, ...notHeld, stakeCall('total')]) {
    const mine = await follower.rpc('query', params);
    const theirs = await producer.rpc('query', params);
    t.ok(theirs.body.result ?? theirs.body.error, 'the producer answers');
    t.same(mine.body.result, theirs.body.result, `${JSON.stringify(params)}: as the producer answers`);
    t.same(mine.body.error, theirs.body.error, 'and its error, if any');
  }
});
