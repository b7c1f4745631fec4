// Outcomes: storage codec, nearcore's to_hashes and views; state-change causes; a near-api-js-signed
// transaction through the runtime.
import {
  base58Encode,
  encodeAccessKey,
  encodeAccount,
  KeyType,
  sha256,
  toHex,
  utf8,
} from '@nearlite/primitives';
import {
  DEFAULT_RUNTIME_CONFIG_VIEW,
  decodeOutcome,
  type ExecutionOutcome,
  encodeOutcome,
  outcomeHashes,
  outcomeView,
  parseRuntimeConfig,
  Runtime,
} from '@nearlite/runtime';
import { TrieUpdate, trieKeyAccessKey, trieKeyAccount } from '@nearlite/trie';
import { actions as A, createTransaction, KeyPair, KeyPairSigner } from 'near-api-js';
import t from 'tap';
import { FULL_ACCESS, GAS_PRICE, NEAR, ONE_KEY_STORAGE } from './helpers.js';

const outcome: ExecutionOutcome = {
  id: new Uint8Array(32).fill(1),
  logs: ['hello'],
  receiptIds: [new Uint8Array(32).fill(2)],
  gasBurnt: 5n,
  tokensBurnt: 500n,
  executorId: 'a.near',
  status: { kind: 'Failure', error: { ActionError: { index: 0, kind: 'X' } } },
};

t.test('outcome codec round-trips, old bytes without metadata still decode', async (t) => {
  t.same(decodeOutcome(encodeOutcome({ ...outcome, metadata: { version: 1 } })), {
    ...outcome,
    metadata: { version: 1 },
  });
  t.same(decodeOutcome(encodeOutcome(outcome)), outcome);
  t.same((outcomeView(outcome) as { metadata: unknown }).metadata, { version: 3, gas_profile: [] });
});

t.test('to_hashes: id, hash of the partial outcome (failure without its error), log hashes', async (t) => {
  const partial = [
    ...[1, 0, 0, 0],
    ...new Array(32).fill(2),
    ...[5, 0, 0, 0, 0, 0, 0, 0],
    ...[244, 1, ...new Array(14).fill(0)],
    ...[6, 0, 0, 0, ...utf8('a.near')],
    1,
  ];
  t.same(outcomeHashes(outcome), [outcome.id, sha256(Uint8Array.from(partial)), sha256(utf8('hello'))]);
});

t.test('a near-api-js transaction applies; each step has its nearcore state-change cause', async (t) => {
  const kp = KeyPair.fromRandom('ed25519');
  const pk = { keyType: KeyType.ED25519, data: kp.getPublicKey().data };
  const base = new Map<string, Uint8Array>([
    [
      toHex(trieKeyAccount('alice.near')),
      encodeAccount({
        amount: 10n * NEAR,
        locked: 0n,
        codeHash: new Uint8Array(32),
        storageUsage: ONE_KEY_STORAGE,
      }),
    ],
    [toHex(trieKeyAccessKey('alice.near', pk)), encodeAccessKey(FULL_ACCESS)],
  ]);
  const tx = createTransaction(
    'alice.near',
    kp.getPublicKey(),
    'alice.near',
    1n,
    [A.transfer(1n)],
    new Uint8Array(32),
  );
  const { txHash, signedTransaction } = await new KeyPairSigner(kp).signTransaction(tx);
  const state = new TrieUpdate({ get: (k) => base.get(toHex(k)) });
  const runtime = new Runtime({
    config: parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW),
    chainId: 'test',
    validators: new Map(),
  });
  const res = runtime.applyChunk(
    {
      shardId: 0,
      blockHeight: 10,
      blockHash: new Uint8Array(32),
      prevBlockHash: new Uint8Array(32),
      blockTimestamp: 0n,
      epochId: new Uint8Array(32),
      epochHeight: 1,
      gasPrice: GAS_PRICE,
      gasLimit: 10n ** 15n,
      randomSeed: new Uint8Array(32),
      accountShard: () => 0,
    },
    state,
    [signedTransaction.encode()],
    [],
  );
  t.same(res.outcomes[0]!.id, txHash, 'the outcome id is near-api-js’ hash');
  const [txOutcome, receiptOutcome] = res.outcomes.map((o) => decodeOutcome(o.bytes));
  // Gas bought at min_gas_purchase_price and burnt at the chunk's lower price: one gas refund.
  t.equal(receiptOutcome!.receiptIds.length, 1);
  t.same(outcomeView(receiptOutcome!), {
    logs: [],
    receipt_ids: receiptOutcome!.receiptIds.map((id) => base58Encode(id)),
    gas_burnt: 223_182_562_500n,
    tokens_burnt: '22318256250000000000',
    executor_id: 'alice.near',
    status: { SuccessValue: '' },
    // A transfer runs no contract: nearcore's profile is empty; the receiver had no contract.
    metadata: { version: 4, gas_profile: [], contracts: [null] },
  });
  t.equal(base58Encode(txOutcome!.id), base58Encode(txHash));
  const changes = state.finalize().stateChanges;
  const account = changes.find((c) => toHex(c.key) === toHex(trieKeyAccount('alice.near')))!;
  t.same(
    account.changes.map((c) => c.cause.type),
    ['transaction_processing', 'receipt_processing'],
  );
  t.equal(res.gasUsed, 2n * 223_182_562_500n);
  t.equal(res.balanceBurnt, 2n * 223_182_562_500n * GAS_PRICE);
});
