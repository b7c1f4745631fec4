// Balances to the yocto against nearcore's fee formula (parameters of protocol 85), receipts, refunds
// and outcomes of real signed transactions applied through Runtime.applyChunk.
import {
  base58Encode,
  decodeReceipt,
  fromHex,
  KeyType,
  receiptIdFromReceipt,
  receiptIdFromTransaction,
} from '@nearlite/primitives';
import { outcomeView } from '@nearlite/runtime';
import t from 'tap';
import { GAS_PRICE, keyFromSeed, NEAR, ONE_KEY_STORAGE, signTx, TestChain } from './helpers.js';

// transaction_costs of EXPERIMENTAL_protocol_config (protocol 85); send_sir = send_not_sir for these.
const RECEIPT = 108_059_500_000n;
const TRANSFER = 115_123_062_500n;
const CREATE_ACCOUNT = 3_850_000_000_000n;
const ADD_FULL_KEY = 101_765_125_000n;
const DELETE_KEY = 94_946_625_000n;

const alice = keyFromSeed(1);
const bob = keyFromSeed(2);

function chain(): TestChain {
  const c = new TestChain();
  c.addAccount('alice.near', 100n * NEAR, alice);
  c.addAccount('bob.near', 10n * NEAR, bob);
  return c;
}

t.test('a transfer costs send + exec fees of the receipt and the action, nothing is refunded', async (t) => {
  const c = chain();
  const tx = signTx(alice, 'alice.near', 'bob.near', 1n, [{ type: 'Transfer', deposit: 3n * NEAR }]);
  const b1 = c.block([tx.bytes]);
  const txOutcome = b1.outcomes[0]!;
  t.equal(txOutcome.gasBurnt, RECEIPT + TRANSFER, 'tx burns the send fees (223182562500)');
  t.equal(txOutcome.tokensBurnt, (RECEIPT + TRANSFER) * GAS_PRICE);
  const receiptId = receiptIdFromTransaction(tx.hash, c.height);
  t.same(txOutcome.status, { kind: 'SuccessReceiptId', receiptId });
  t.same(outcomeView(txOutcome), {
    logs: [],
    receipt_ids: [base58Encode(receiptId)],
    gas_burnt: RECEIPT + TRANSFER,
    tokens_burnt: ((RECEIPT + TRANSFER) * GAS_PRICE).toString(),
    executor_id: 'alice.near',
    status: { SuccessReceiptId: base58Encode(receiptId) },
    metadata: { version: 1, gas_profile: null },
  });
  t.equal(b1.res.outgoingReceipts.length, 1, 'the receipt goes out to bob');
  t.equal(c.account('alice.near')!.amount, 100n * NEAR - 3n * NEAR - 2n * (RECEIPT + TRANSFER) * GAS_PRICE);
  t.equal(c.accessKey('alice.near', alice.publicKey)!.nonce, 1n, 'the key nonce moves to the tx nonce');

  const b2 = c.block();
  const r = b2.outcomes[0]!;
  t.equal(r.gasBurnt, RECEIPT + TRANSFER, 'the receipt burns the exec fees');
  t.same(r.status, { kind: 'SuccessValue', value: new Uint8Array(0) });
  t.same(r.receiptIds, [], 'no refund: the prepaid gas was exactly the exec fees');
  t.equal(c.account('bob.near')!.amount, 13n * NEAR);
  t.equal(c.burnt, 2n * (RECEIPT + TRANSFER) * GAS_PRICE);
  t.equal(c.totalBalance() + c.burnt, 110n * NEAR, 'nothing created or lost');
});

t.test('create a sub-account with a transfer and a key in one transaction', async (t) => {
  const c = chain();
  const carol = keyFromSeed(3);
  const actions = [
    { type: 'CreateAccount' } as const,
    { type: 'Transfer', deposit: 5n * NEAR } as const,
    {
      type: 'AddKey',
      publicKey: carol.publicKey,
      accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
    } as const,
  ];
  const tx = signTx(alice, 'alice.near', 'carol.alice.near', 7n, [...actions]);
  c.block([tx.bytes]);
  const fees = RECEIPT + CREATE_ACCOUNT + TRANSFER + ADD_FULL_KEY;
  t.equal(c.account('alice.near')!.amount, 100n * NEAR - 5n * NEAR - 2n * fees * GAS_PRICE);
  const { outcomes } = c.block();
  t.equal(outcomes[0]!.gasBurnt, fees);
  t.same(c.account('carol.alice.near'), {
    amount: 5n * NEAR,
    locked: 0n,
    codeHash: new Uint8Array(32),
    storageUsage: ONE_KEY_STORAGE,
  });
  t.same(c.accessKey('carol.alice.near', carol.publicKey), {
    nonce: BigInt(c.height - 1) * 1_000_000n,
    permission: { kind: 'FullAccess' },
  });
  t.equal(c.totalBalance() + c.burnt, 110n * NEAR);

  const bad = signTx(alice, 'alice.near', 'dave.bob.near', 8n, [{ type: 'CreateAccount' }]);
  c.block([bad.bytes]);
  const failed = c.block().outcomes[0]!;
  t.same(failed.status, {
    kind: 'Failure',
    error: {
      ActionError: {
        index: 0,
        kind: { CreateAccountNotAllowed: { account_id: 'dave.bob.near', predecessor_id: 'alice.near' } },
      },
    },
  });
  const top = signTx(alice, 'alice.near', 'toplevel', 9n, [{ type: 'CreateAccount' }]);
  c.block([top.bytes]);
  t.same((c.block().outcomes[0]!.status as { error: unknown }).error, {
    ActionError: {
      index: 0,
      kind: {
        CreateAccountOnlyByRegistrar: {
          account_id: 'toplevel',
          registrar_account_id: 'registrar',
          predecessor_id: 'alice.near',
        },
      },
    },
  });
});

t.test('a failing receipt rolls back, refunds the deposit and the unspent exec fees', async (t) => {
  const c = chain();
  const ghost = keyFromSeed(9);
  const tx = signTx(alice, 'alice.near', 'alice.near', 1n, [
    { type: 'DeleteKey', publicKey: ghost.publicKey },
    { type: 'Transfer', deposit: 2n * NEAR },
  ]);
  const { outcomes, res } = c.block([tx.bytes]);
  const [txOutcome, receiptOutcome] = outcomes;
  t.equal(txOutcome!.gasBurnt, RECEIPT + DELETE_KEY + TRANSFER, 'signer is receiver: the receipt runs now');
  const burnt = RECEIPT + DELETE_KEY;
  t.equal(receiptOutcome!.gasBurnt, burnt, 'the failing action is charged, the next one is not');
  t.same(receiptOutcome!.status, {
    kind: 'Failure',
    error: {
      ActionError: {
        index: 0,
        kind: {
          DeleteKeyDoesNotExist: {
            account_id: 'alice.near',
            public_key: `ed25519:${base58Encode(ghost.publicKey.data)}`,
          },
        },
      },
    },
  });
  const receiptId = receiptIdFromTransaction(tx.hash, c.height);
  const refunds = res.outgoingReceipts.map((r) => decodeReceipt(r.bytes));
  t.same(
    refunds.map((r) => r.receiptId),
    [0, 1].map((k) => receiptIdFromReceipt(receiptId, c.height, k)),
    'deposit refund first, then the gas refund',
  );
  t.same(refunds[0]!.receipt, {
    kind: 'Action',
    signerId: 'system',
    signerPublicKey: { keyType: KeyType.ED25519, data: new Uint8Array(32) },
    gasPrice: 0n,
    outputDataReceivers: [],
    inputDataIds: [],
    actions: [{ type: 'Transfer', deposit: 2n * NEAR }],
  });
  t.same(refunds[1]!.receipt, {
    kind: 'Action',
    signerId: 'alice.near',
    signerPublicKey: alice.publicKey,
    gasPrice: 0n,
    outputDataReceivers: [],
    inputDataIds: [],
    actions: [{ type: 'Transfer', deposit: TRANSFER * GAS_PRICE }],
  });
  const refundOutcomes = c.settle();
  t.equal(refundOutcomes.length, 2);
  for (const o of refundOutcomes) {
    t.equal(o.gasBurnt, 0n, 'refunds are free');
    t.same(o.status, { kind: 'SuccessValue', value: new Uint8Array(0) });
  }
  t.equal(
    c.account('alice.near')!.amount,
    100n * NEAR - (RECEIPT + DELETE_KEY + TRANSFER) * GAS_PRICE - burnt * GAS_PRICE,
    'alice pays the send fees and the exec fees actually burnt, to the yocto',
  );
  t.equal(c.totalBalance() + c.burnt, 110n * NEAR);
});

t.test('a transfer to a missing named account fails and the deposit comes back', async (t) => {
  const c = chain();
  const tx = signTx(alice, 'alice.near', 'nobody.near', 1n, [{ type: 'Transfer', deposit: NEAR }]);
  c.block([tx.bytes]);
  const o = c.block().outcomes[0]!;
  t.same((o.status as { error: unknown }).error, {
    ActionError: { index: 0, kind: { AccountDoesNotExist: { account_id: 'nobody.near' } } },
  });
  c.settle();
  t.equal(c.account('alice.near')!.amount, 100n * NEAR - 2n * (RECEIPT + TRANSFER) * GAS_PRICE);
  t.equal(c.account('nobody.near'), null);
});

t.test('a lone transfer creates a NEAR-implicit account with its derived key', async (t) => {
  const c = chain();
  const implicit = keyFromSeed(4);
  const id = Buffer.from(implicit.publicKey.data).toString('hex');
  const tx = signTx(alice, 'alice.near', id, 1n, [{ type: 'Transfer', deposit: NEAR }]);
  c.block([tx.bytes]);
  const fees = RECEIPT + TRANSFER + CREATE_ACCOUNT + ADD_FULL_KEY;
  t.equal(
    c.account('alice.near')!.amount,
    99n * NEAR - 2n * fees * GAS_PRICE,
    'implicit creation is paid up front',
  );
  c.settle();
  t.equal(c.account(id)!.amount, NEAR);
  t.equal(c.account(id)!.storageUsage, ONE_KEY_STORAGE);
  t.same(
    c.accessKey(id, { keyType: KeyType.ED25519, data: fromHex(id) })!.nonce,
    BigInt(c.height - 1) * 1_000_000n,
  );
  const next = signTx(implicit, id, 'bob.near', BigInt(c.height - 1) * 1_000_000n + 1n, [
    { type: 'Transfer', deposit: 1n },
  ]);
  c.block([next.bytes]);
  c.settle();
  t.equal(c.account('bob.near')!.amount, 10n * NEAR + 1n, 'the new account can sign');
  t.equal(c.totalBalance() + c.burnt, 110n * NEAR);
});

t.test('invalid transactions get nearcore InvalidTxError outcomes and change nothing', async (t) => {
  const c = chain();
  const ok = signTx(alice, 'alice.near', 'bob.near', 5n, [{ type: 'Transfer', deposit: 1n }]);
  c.block([ok.bytes]);
  const replay = signTx(alice, 'alice.near', 'bob.near', 5n, [{ type: 'Transfer', deposit: 2n }]);
  const tooLarge = signTx(alice, 'alice.near', 'bob.near', 10n ** 12n, [{ type: 'Transfer', deposit: 2n }]);
  const broke = signTx(bob, 'bob.near', 'alice.near', 1n, [{ type: 'Transfer', deposit: 11n * NEAR }]);
  const wrongKey = signTx(bob, 'alice.near', 'bob.near', 6n, [{ type: 'Transfer', deposit: 1n }]);
  const before = c.account('alice.near');
  const { outcomes } = c.block([replay.bytes, tooLarge.bytes, broke.bytes, wrongKey.bytes]);
  const errors = outcomes.slice(0, 4).map((o) => (o.status as { error: unknown }).error);
  t.same(errors, [
    { InvalidTxError: { InvalidNonce: { tx_nonce: 5n, ak_nonce: 5n } } },
    {
      InvalidTxError: { NonceTooLarge: { tx_nonce: 10n ** 12n, upper_bound: BigInt(c.height) * 1_000_000n } },
    },
    {
      InvalidTxError: {
        NotEnoughBalance: {
          signer_id: 'bob.near',
          balance: (10n * NEAR).toString(),
          cost: (11n * NEAR + 2n * (RECEIPT + TRANSFER) * GAS_PRICE).toString(),
        },
      },
    },
    {
      InvalidTxError: {
        InvalidAccessKeyError: {
          AccessKeyNotFound: {
            account_id: 'alice.near',
            public_key: `ed25519:${base58Encode(bob.publicKey.data)}`,
          },
        },
      },
    },
  ]);
  t.same(c.account('alice.near'), before);
});

t.test('receipts past the chunk gas limit wait in the delayed queue, first in first out', async (t) => {
  const c = chain();
  c.gasLimit = 1n;
  const txs = [1n, 2n, 3n].map((n) =>
    signTx(alice, 'alice.near', 'alice.near', n, [{ type: 'Transfer', deposit: n }]),
  );
  const first = c.block(txs.map((x) => x.bytes));
  t.equal(first.outcomes.length, 3, 'only the transactions ran');
  t.equal(first.res.delayedReceipts, 3);
  const ids = txs.map((x) => base58Encode(receiptIdFromTransaction(x.hash, c.height)));
  const seen: string[] = [];
  for (let i = 0; i < 3; i++) {
    const b = c.block();
    t.equal(b.outcomes.length, 1, 'one receipt per block under a 1-gas limit');
    seen.push(base58Encode(b.outcomes[0]!.id));
    t.equal(b.res.delayedReceipts, 2 - i);
  }
  t.same(seen, ids);
  t.equal(c.totalBalance() + c.burnt, 110n * NEAR);
});
