// nearcore's pool iterator hands prepare_transactions one group of transactions, a (signer, key),
// at a time; the turn takes that group's transactions in nonce order until one is valid, dropping
// the invalid ones, and then passes to the next group (chain/pool's PoolIteratorWrapper and
// prepare_transactions_extra's inner `while let Some(tx_peek)` loop). So where a key's first
// candidate is refused, its next is taken before any other key's, and a chunk that fills up takes
// it where one that went on to the next key would not.
import { encodeAccessKey, encodeAccount } from '@nearlite/primitives';
import { Runtime } from '@nearlite/runtime';
import { type Trie, TrieUpdate, trieKeyAccessKey, trieKeyAccount } from '@nearlite/trie';
import t from 'tap';
import { config, GAS_PRICE, keyFromSeed, NEAR, signTx, trieOf } from './helpers.js';

const keyA = keyFromSeed(21);
const keyB = keyFromSeed(22);

/** alice.near with two full-access keys, both at nonce 5. */
function state(): Trie {
  const account = { amount: 100n * NEAR, locked: 0n, codeHash: new Uint8Array(32), storageUsage: 300n };
  const changes = [{ key: trieKeyAccount('alice.near'), value: encodeAccount(account) }];
  for (const k of [keyA, keyB])
    changes.push({
      key: trieKeyAccessKey('alice.near', k.publicKey),
      value: encodeAccessKey({ nonce: 5n, permission: { kind: 'FullAccess' } }),
    });
  return trieOf(changes);
}

const transfer = (key: typeof keyA, nonce: bigint) =>
  signTx(key, 'alice.near', 'bob.near', nonce, [{ type: 'Transfer', deposit: 1n }]).bytes;

// The pool's round robin: A's first, B's first, A's second, B's second. A's first reuses its key's
// nonce and is refused.
const txs = [transfer(keyA, 5n), transfer(keyB, 6n), transfer(keyA, 6n), transfer(keyB, 7n)];
const groups = ['alice.near/A', 'alice.near/B', 'alice.near/A', 'alice.near/B'];
const size = txs[0]!.length;
const runtime = new Runtime({ config, chainId: 'test', validators: new Map() });

function prepare(sizeLimit: number, withGroups: boolean) {
  const update = new TrieUpdate(state());
  return runtime.prepareTransactions(
    update,
    txs,
    GAS_PRICE,
    100,
    txs.map(() => true),
    withGroups ? { sizeLimit, groups } : { sizeLimit },
  );
}

t.test('every transfer has the same size, so the size limit counts transactions', async (t) => {
  t.same(
    txs.map((b) => b.length),
    [size, size, size, size],
  );
});

t.test("a refused candidate's key goes on to its next one in the same turn", async (t) => {
  const r = prepare(4 * size, true);
  t.same(r.accepted, [2, 1, 3], "A's second, then B's first, then B's second");
  t.same(
    r.rejected.map((x) => x.index),
    [0],
  );
  t.match(r.rejected[0]!.error, { InvalidNonce: { tx_nonce: 5, ak_nonce: 5 } });
  t.same(r.untaken, []);
});

t.test('a chunk with room for two takes A and B; for one, A', async (t) => {
  const two = prepare(2 * size, true);
  t.same(two.accepted, [2, 1]);
  t.same(two.untaken, [3], "B's second waits for a later chunk");
  const one = prepare(size, true);
  t.same(one.accepted, [2], "A's turn is not over until it has taken one");
  t.same(one.untaken, [1, 3]);
});

t.test('without groups every candidate is a turn of its own, in the order given', async (t) => {
  const one = prepare(size, false);
  t.same(one.accepted, [1], 'the refused one does not hold the next candidate back');
  t.same(one.untaken, [2, 3]);
  const all = prepare(4 * size, false);
  t.same(all.accepted, [1, 2, 3]);
});

t.test('a group whose candidates are all refused leaves the turns to the others', async (t) => {
  const update = new TrieUpdate(state());
  const bad = [transfer(keyA, 4n), transfer(keyB, 6n), transfer(keyA, 5n)];
  const r = runtime.prepareTransactions(update, bad, GAS_PRICE, 100, [true, true, true], {
    groups: ['A', 'B', 'A'],
  });
  t.same(r.accepted, [1]);
  t.same(
    r.rejected.map((x) => x.index),
    [0, 2],
  );
  t.same(r.untaken, []);
});
