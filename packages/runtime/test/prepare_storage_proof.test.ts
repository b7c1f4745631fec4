// A chunk's candidate transactions are checked against a recording of the state, as nearcore's
// prepare_transactions records them: once the accounts and keys read so far come to more than
// new_transactions_validation_state_size_soft_limit (572,864 bytes), no more candidates are taken,
// and those left wait for a later chunk. The expected counts come from the trie's own proof walks
// (its nodes on each signer's paths, deduplicated, and the values read), not from the recorder.
import { encodeAccessKey, encodeAccount } from '@nearlite/primitives';
import { DEFAULT_RUNTIME_CONFIG_VIEW, parseRuntimeConfig, Runtime } from '@nearlite/runtime';
import { type Trie, TrieRecorder, TrieUpdate, trieKeyAccessKey, trieKeyAccount } from '@nearlite/trie';
import t from 'tap';
import { ProvenBytes } from '../../../test/helpers/proven_bytes.js';
import { config, GAS_PRICE, keyFromSeed, NEAR, signTx, trieOf } from './helpers.js';

const key = keyFromSeed(7);
const id = (i: number) => `u${String(i).padStart(5, '0')}.near`;

/** `n` accounts, each with one full-access key (nonce 1,000·i) and a balance of its own. */
function state(n: number): Trie {
  const changes = [];
  for (let i = 0; i < n; i++) {
    const account = {
      amount: 10n * NEAR + BigInt(i),
      locked: 0n,
      codeHash: new Uint8Array(32),
      storageUsage: 182n,
    };
    changes.push({ key: trieKeyAccount(id(i)), value: encodeAccount(account) });
    changes.push({
      key: trieKeyAccessKey(id(i), key.publicKey),
      value: encodeAccessKey({ nonce: BigInt(i) * 1000n, permission: { kind: 'FullAccess' } }),
    });
  }
  return trieOf(changes);
}

/** A transfer from each of the first `n` accounts, in order. */
function transfers(n: number): Uint8Array[] {
  const txs: Uint8Array[] = [];
  for (let i = 0; i < n; i++)
    txs.push(
      signTx(key, id(i), 'bob.near', BigInt(i) * 1000n + 1n, [{ type: 'Transfer', deposit: 1n }]).bytes,
    );
  return txs;
}

/**
 * How many of the transfers nearcore's rule takes: before each, the distinct node and value bytes
 * on the signers' account and key paths so far are compared with `limit`.
 */
function expectedTaken(trie: Trie, n: number, limit: number): number {
  const proven = new ProvenBytes(trie);
  for (let i = 0; i < n; i++) {
    if (proven.size > limit) return i;
    proven.add(trieKeyAccount(id(i)));
    proven.add(trieKeyAccessKey(id(i), key.publicKey));
  }
  return n;
}

function prepare(runtime: Runtime, trie: Trie, txs: Uint8Array[], recording = true) {
  const recorder = recording ? new TrieRecorder(trie) : null;
  const reader = {
    get(k: Uint8Array) {
      recorder?.recordLookup(k, true);
      return trie.get(k);
    },
  };
  const update = new TrieUpdate(reader, recorder);
  const verdicts = txs.map(() => true);
  return {
    r: runtime.prepareTransactions(update, txs, GAS_PRICE, 100, verdicts),
    recorded: update.recordedStorageSize(),
  };
}

const runtime = new Runtime({ config, chainId: 'test', validators: new Map() });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

t.test("nearcore's limit, 572,864 bytes, stops a chunk of transfers from distinct signers", async (t) => {
  t.equal(config.newTransactionsValidationStateSizeSoftLimit, 572_864, "protocol 86's parameter");
  const n = 3000;
  const trie = state(n);
  const txs = transfers(n);
  const want = expectedTaken(trie, n, 572_864);
  t.ok(want > 100 && want < n, `the limit binds: ${want} of ${n} taken`);
  const { r, recorded } = prepare(runtime, trie, txs);
  t.same(r.accepted, range(0, want), 'the transactions before the limit, and the one that crosses it');
  t.same(r.untaken, range(want, n), 'the rest wait for a later chunk');
  t.same(r.rejected, []);
  t.ok(recorded > 572_864, `recorded ${recorded} bytes`);
});

t.test('a lower limit takes fewer; a limit of one byte takes exactly one', async (t) => {
  const trie = state(400);
  const txs = transfers(400);
  for (const limit of [1, 20_000, 100_000]) {
    const view = structuredClone(DEFAULT_RUNTIME_CONFIG_VIEW) as {
      witness_config: { new_transactions_validation_state_size_soft_limit: number };
    };
    view.witness_config.new_transactions_validation_state_size_soft_limit = limit;
    const low = new Runtime({ config: parseRuntimeConfig(view), chainId: 'test', validators: new Map() });
    const want = expectedTaken(trie, 400, limit);
    if (limit === 1) t.equal(want, 1);
    const { r } = prepare(low, trie, txs);
    t.same(r.accepted, range(0, want), `limit ${limit}: ${want} taken`);
    t.same(r.untaken, range(want, 400));
  }
});

t.test('a rejected transaction still counts what its check read', async (t) => {
  const trie = state(400);
  // Every other transfer reuses its key's nonce and is rejected, after reading the same rows.
  const txs = range(0, 400).map(
    (i) =>
      signTx(key, id(i), 'bob.near', BigInt(i) * 1000n + (i % 2 === 0 ? 1n : 0n), [
        { type: 'Transfer', deposit: 1n },
      ]).bytes,
  );
  const view = structuredClone(DEFAULT_RUNTIME_CONFIG_VIEW) as {
    witness_config: { new_transactions_validation_state_size_soft_limit: number };
  };
  view.witness_config.new_transactions_validation_state_size_soft_limit = 50_000;
  const low = new Runtime({ config: parseRuntimeConfig(view), chainId: 'test', validators: new Map() });
  const want = expectedTaken(trie, 400, 50_000);
  const { r } = prepare(low, trie, txs);
  t.same(
    r.accepted,
    range(0, want).filter((i) => i % 2 === 0),
    'the valid ones before the limit',
  );
  t.same(
    r.rejected.map((x) => x.index),
    range(0, want).filter((i) => i % 2 === 1),
    'the invalid ones before it, rejected',
  );
  t.same(r.untaken, range(want, 400));
});

t.test('without recording (a check before admission) nothing stops the chunk', async (t) => {
  const trie = state(3000);
  const { r, recorded } = prepare(runtime, trie, transfers(3000), false);
  t.equal(r.accepted.length, 3000);
  t.same(r.rejected, []);
  t.equal(recorded, 0);
});
