// A LevelDB history whose first block does not follow the genesis holds the state from that block on:
// a read the rows since cannot answer is refused (or asked of the upstream), never answered from the
// genesis records or as absent.
import { join } from 'node:path';
import {
  encodeFlatRow,
  encodeHistoryValue,
  HistoryStore,
  historyKey,
  ingestBlock,
  STATE_FROM_KEY,
  stateFromOf,
  UpstreamRpc,
} from '@nearlite/follower';
import { encodeAccount, utf8 } from '@nearlite/primitives';
import { DBCol, Store, StoreUpdate } from '@nearlite/store';
import { trieKeyAccount } from '@nearlite/trie';
import t from 'tap';
import { MAINNET_GENESIS_HEIGHT } from '../../../test/helpers/mainnet.js';
import { loadFixture } from '../../../test/helpers/stream_fixtures.js';
import { syntheticChain } from '../../../test/helpers/synthetic_chain.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { followedTo } from './followed_to.js';
import { jsonRpcServer, openFollower, rpc } from './helpers.js';

const BLOCK = 'mainnet-93085141';
const HEIGHT = 93_085_141;
const GENESIS_ONLY = 'genesis-only.near';
const genesisAccount = encodeAccount({
  amount: 7n * 10n ** 24n,
  locked: 0n,
  codeHash: new Uint8Array(32),
  storageUsage: 182n,
});

/** An account the block changes (its last account_update), and that update. */
function changedAccount(): { id: string; amount: string } {
  const { message } = loadFixture(BLOCK);
  const c = message.shards.flatMap((s) => s.state_changes).findLast((x) => x.type === 'account_update')!;
  return { id: String(c.change.account_id), amount: String(c.change.amount) };
}

const viewAccount = (id: string) => ({ request_type: 'view_account', account_id: id, block_id: HEIGHT });

t.test('where the state begins: the first block, unless it follows the genesis', async (t) => {
  t.equal(stateFromOf(100, { height: 101, prevHeight: 100 }), null, 'the genesis’ child');
  t.equal(stateFromOf(100, { height: 100, prevHeight: null }), null, 'the genesis block itself');
  t.equal(stateFromOf(100, { height: 105, prevHeight: 100 }), null, 'heights 101 to 104 skipped');
  t.equal(stateFromOf(100, { height: 105, prevHeight: 104 }), 105, 'blocks in between not followed');
  t.equal(stateFromOf(100, { height: 105, prevHeight: null }), 105, 'a header that does not say');
  t.equal(stateFromOf(null, { height: 101, prevHeight: 100 }), 101, 'no genesis state at all');
});

t.test('a history that begins after the genesis', async (t) => {
  const dir = tempDir(t);
  const { store, history, backend } = await openFollower(dir);
  // Mainnet's genesis height, with a record of an account no followed block touches.
  await history.writeGenesis(MAINNET_GENESIS_HEIGHT, [
    { key: trieKeyAccount(GENESIS_ONLY), value: genesisAccount },
  ]);
  const { message } = loadFixture(BLOCK);
  await ingestBlock(history, message);
  t.equal(history.stateFrom(), HEIGHT, 'held from the first followed block');

  const changed = changedAccount();
  const mine = await rpc(backend, 'query', viewAccount(changed.id));
  t.equal(mine.result.amount, changed.amount, 'an account the block changed is served');
  for (const params of [
    viewAccount(GENESIS_ONLY),
    viewAccount('nobody-here.near'),
    { request_type: 'view_access_key_list', account_id: changed.id, block_id: HEIGHT },
  ]) {
    const got = await rpc(backend, 'query', params);
    t.equal(got.status, 500);
    t.equal(got.error.cause.name, 'INTERNAL_ERROR', JSON.stringify(params));
    t.match(
      got.error.cause.info.error_message,
      `the state at block #${HEIGHT} is not held here: this node follows a block stream from block #${HEIGHT} on`,
    );
  }
  // Below a key's newest row, a read seeks the history: the row it finds answers only if held.
  const seek = trieKeyAccount('seek.near');
  const [a, b] = [encodeHistoryValue(utf8('a')), encodeHistoryValue(utf8('b'))];
  await store.commit(
    new StoreUpdate()
      .put(DBCol.StateHistory, historyKey(seek, HEIGHT), a)
      .put(DBCol.StateHistory, historyKey(seek, HEIGHT + 5), b)
      .put(DBCol.StateHistoryFlat, seek, encodeFlatRow(HEIGHT + 5, b))
      .put(DBCol.StateHistory, historyKey(trieKeyAccount(GENESIS_ONLY), HEIGHT + 5), b)
      .put(DBCol.StateHistoryFlat, trieKeyAccount(GENESIS_ONLY), encodeFlatRow(HEIGHT + 5, b)),
  );
  await followedTo(store, HEIGHT + 5);
  t.same(await history.valueAt(seek, HEIGHT + 2), utf8('a'), 'a row since the first block, found by a seek');
  await t.rejects(
    history.valueAt(trieKeyAccount(GENESIS_ONLY), HEIGHT + 2),
    { name: 'HandlerError', stateFrom: HEIGHT },
    'a seek that finds the genesis row',
  );
  // An account the history holds as deleted: no account, so no code to read either.
  const gone = trieKeyAccount('gone.near');
  const deletion = encodeHistoryValue(null);
  await store.commit(
    new StoreUpdate()
      .put(DBCol.StateHistory, historyKey(gone, HEIGHT), deletion)
      .put(DBCol.StateHistoryFlat, gone, encodeFlatRow(HEIGHT, deletion)),
  );
  for (const request_type of ['view_code', 'call_function']) {
    const got = await rpc(backend, 'query', {
      request_type,
      account_id: 'gone.near',
      method_name: 'm',
      args_base64: '',
      block_id: HEIGHT,
    });
    t.equal(got.error.cause.name, 'UNKNOWN_ACCOUNT', `${request_type} of an account deleted since`);
  }
  await t.rejects(
    history.valueAt(trieKeyAccount(GENESIS_ONLY), HEIGHT),
    { name: 'HandlerError', stateFrom: HEIGHT, height: HEIGHT },
    'not the genesis row',
  );
  await store.close();

  // The mark is stored with the first block: a restart keeps it.
  const reopened = await Store.open(join(dir, 'data'));
  t.equal(new HistoryStore(reopened).stateFrom(), HEIGHT, 'kept across a restart');
  await reopened.close();
});

t.test('with an upstream, what is not held is its answer at the same block', async (t) => {
  const upstream = await jsonRpcServer(t, () => ({
    result: { amount: 'from upstream', block_height: HEIGHT },
  }));
  const { store, history, backend } = await openFollower(tempDir(t), {
    upstream: new UpstreamRpc(upstream.url),
  });
  await history.writeGenesis(MAINNET_GENESIS_HEIGHT, [
    { key: trieKeyAccount(GENESIS_ONLY), value: genesisAccount },
  ]);
  const { message } = loadFixture(BLOCK);
  await ingestBlock(history, message);

  const got = await rpc(backend, 'query', {
    request_type: 'view_account',
    account_id: GENESIS_ONLY,
    finality: 'final',
  });
  t.same(got.result, { amount: 'from upstream', block_height: HEIGHT });
  const state = await rpc(backend, 'query', {
    request_type: 'view_state',
    account_id: GENESIS_ONLY,
    prefix_base64: 'AQ==',
    after_key_base64: 'AQI=',
    limit: 3,
    block_id: HEIGHT,
  });
  t.ok(state.result, 'a page of state');
  t.same(upstream.calls, [
    {
      method: 'query',
      params: { request_type: 'view_account', account_id: GENESIS_ONLY, block_id: message.block.header.hash },
    },
    {
      method: 'query',
      params: {
        request_type: 'view_state',
        account_id: GENESIS_ONLY,
        prefix_base64: 'AQ==',
        after_key_base64: 'AQI=',
        limit: 3,
        block_id: message.block.header.hash,
      },
    },
  ]);
  // What the history holds is not asked.
  await rpc(backend, 'query', viewAccount(changedAccount().id));
  t.equal(upstream.calls.length, 2, 'a held account is answered here');
  await store.close();
});

t.test('a history whose first block follows the genesis holds the whole state', async (t) => {
  const { store, history, backend } = await openFollower(tempDir(t));
  const { message } = loadFixture(BLOCK);
  await history.writeGenesis(message.block.header.prev_height!, [
    { key: trieKeyAccount(GENESIS_ONLY), value: genesisAccount },
  ]);
  await ingestBlock(history, message);
  t.equal(history.stateFrom(), null);
  const got = await rpc(backend, 'query', viewAccount(GENESIS_ONLY));
  t.equal(got.result.amount, String(7n * 10n ** 24n), 'its genesis record is its state');
  const nobody = await rpc(backend, 'query', viewAccount('nobody-here.near'));
  t.equal(nobody.error.cause.name, 'UNKNOWN_ACCOUNT');
  await store.close();
});

t.test('a history written before the mark gets it from its first block', async (t) => {
  const dir = tempDir(t);
  const { store, history } = await openFollower(dir);
  await history.writeGenesis(MAINNET_GENESIS_HEIGHT, []);
  await ingestBlock(history, loadFixture(BLOCK).message);
  // As such a history was: the first block and no mark.
  const u = new StoreUpdate();
  u.delete(DBCol.FollowerMisc, STATE_FROM_KEY);
  await store.commit(u);
  await store.close();

  const reopened = await Store.open(join(dir, 'data'));
  const old = new HistoryStore(reopened);
  t.equal(old.stateFrom(), null, 'without the mark it claims the whole state');
  t.equal(await old.markStateFrom(), HEIGHT, 'marked from its first block');
  t.equal(old.stateFrom(), HEIGHT);
  t.equal(await old.markStateFrom(), null, 'once');
  await reopened.close();

  // A history that followed from the genesis' child is left as it is.
  const whole = await openFollower(tempDir(t));
  const { message } = loadFixture(BLOCK);
  await whole.history.writeGenesis(message.block.header.prev_height!, []);
  await ingestBlock(whole.history, message);
  t.equal(await whole.history.markStateFrom(), null);
  t.equal(whole.history.stateFrom(), null);
  await whole.store.close();
});

t.test("without the genesis block, status names the genesis hash its first block's parent has", async (t) => {
  // The genesis' child, and a first block after skipped heights whose parent is the genesis.
  for (const from of [MAINNET_GENESIS_HEIGHT + 1, MAINNET_GENESIS_HEIGHT + 5]) {
    const [first] = syntheticChain(1, {
      from,
      afterGenesis: MAINNET_GENESIS_HEIGHT,
      genesisHash: 'US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx',
    });
    const f = await openFollower(tempDir(t));
    await f.history.writeGenesis(MAINNET_GENESIS_HEIGHT, []);
    await ingestBlock(f.history, first!);
    const status = await rpc(f.backend, 'status', []);
    t.equal(status.result.genesis_hash, first!.block.header.prev_hash, `first block #${from}`);
    await f.store.close();
  }
  // A first block that does not follow the genesis names none: mainnet's is the one nearcore asserts.
  const { store, history, backend } = await openFollower(tempDir(t));
  await history.writeGenesis(MAINNET_GENESIS_HEIGHT, []);
  await ingestBlock(history, loadFixture(BLOCK).message);
  const status = await rpc(backend, 'status', []);
  t.equal(status.result.genesis_hash, 'EPnLgE7iEq9s7yTkos96M3cWymH5avBAPm3qx3NXqR8H');
  await store.close();
});
