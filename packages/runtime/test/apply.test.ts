// Balances to the yocto against nearcore's fee formula (parameters of nearcore's snapshot for the
// reported protocol), receipts, refunds and outcomes of real signed transactions applied through
// Runtime.applyChunk. Gas is bought at max(gas price, min_gas_purchase_price) and burnt at the chunk's
// lower price; the surplus comes back in a gas refund.
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
import { ACCOUNT_CREATION_CHARGE, FEES, MIN_GAS_PURCHASE_PRICE } from './snapshot.js';

// send_sir = send_not_sir = execution for these in the snapshot; create_account's send and exec differ.
const RECEIPT = FEES.receipt.exec;
const TRANSFER = FEES.transfer.exec;
const ADD_FULL_KEY = FEES.addFullKey.exec;
const DELETE_KEY = FEES.deleteKey.exec;
/** The price receipts buy their gas at: the floor, as the test chain's gas price is below it. */
const PURCHASE = MIN_GAS_PURCHASE_PRICE;
if (GAS_PRICE >= PURCHASE) throw new Error('these expectations assume a gas price below the floor');
const SURPLUS = PURCHASE - GAS_PRICE;

const alice = keyFromSeed(1);
const bob = keyFromSeed(2);

function chain(): TestChain {
  const c = new TestChain();
  c.addAccount('alice.near', 100n * NEAR, alice);
  c.addAccount('bob.near', 10n * NEAR, bob);
  return c;
}

t.test('a transfer costs send + exec fees; the price surplus of the exec fees is refunded', async (t) => {
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
  t.equal(
    c.account('alice.near')!.amount,
    100n * NEAR - 3n * NEAR - (RECEIPT + TRANSFER) * GAS_PRICE - (RECEIPT + TRANSFER) * PURCHASE,
  );
  const sent = decodeReceipt(b1.res.outgoingReceipts[0]!.bytes);
  t.equal((sent.receipt as { gasPrice: bigint }).gasPrice, PURCHASE, 'bought at min_gas_purchase_price');
  t.equal(c.accessKey('alice.near', alice.publicKey)!.nonce, 1n, 'the key nonce moves to the tx nonce');

  const b2 = c.block();
  const r = b2.outcomes[0]!;
  t.equal(r.gasBurnt, RECEIPT + TRANSFER, 'the receipt burns the exec fees');
  t.same(r.status, { kind: 'SuccessValue', value: new Uint8Array(0) });
  t.equal(r.receiptIds.length, 1, 'a gas refund: the exec fees were bought above the burn price');
  const refund = decodeReceipt(b2.res.outgoingReceipts[0]!.bytes);
  t.equal(refund.receiverId, 'alice.near');
  t.same((refund.receipt as { actions: unknown }).actions, [
    { type: 'Transfer', deposit: (RECEIPT + TRANSFER) * SURPLUS },
  ]);
  t.equal(c.account('bob.near')!.amount, 13n * NEAR);
  c.settle();
  t.equal(c.account('alice.near')!.amount, 97n * NEAR - 2n * (RECEIPT + TRANSFER) * GAS_PRICE);
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
  const send = RECEIPT + FEES.createAccount.sendNotSir + TRANSFER + ADD_FULL_KEY;
  const exec = RECEIPT + FEES.createAccount.exec + TRANSFER + ADD_FULL_KEY;
  t.equal(send, 824_947_687_500n, 'the snapshot gives the gas issue 12 measured on nearcore');
  t.equal(c.account('alice.near')!.amount, 100n * NEAR - 5n * NEAR - send * GAS_PRICE - exec * PURCHASE);
  const { outcomes } = c.block();
  t.equal(outcomes[0]!.gasBurnt, exec);
  const charge = ACCOUNT_CREATION_CHARGE - GAS_PRICE * FEES.createAccount.exec;
  t.equal(outcomes[0]!.tokensBurnt, exec * GAS_PRICE + charge, 'the account-creation charge is burnt');
  const createdAt = c.height;
  c.settle();
  t.equal(
    c.account('alice.near')!.amount,
    95n * NEAR - send * GAS_PRICE - exec * GAS_PRICE - charge,
    'the surplus comes back less the charge',
  );
  t.same(c.account('carol.alice.near'), {
    amount: 5n * NEAR,
    locked: 0n,
    codeHash: new Uint8Array(32),
    storageUsage: ONE_KEY_STORAGE,
  });
  t.same(c.accessKey('carol.alice.near', carol.publicKey), {
    nonce: BigInt(createdAt - 1) * 1_000_000n,
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
    actions: [{ type: 'Transfer', deposit: TRANSFER * PURCHASE + burnt * SURPLUS }],
  });
  const refundOutcomes = c.settle();
  t.equal(refundOutcomes.length, 2);
  for (const o of refundOutcomes) {
    // As mainnet reports them (block 61321189): the transfer's exec gas, no tokens.
    t.equal(o.gasBurnt, RECEIPT + TRANSFER, 'a refund reports its gas');
    t.equal(o.tokensBurnt, 0n, 'refunds are free');
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
  const send = RECEIPT + TRANSFER + FEES.createAccount.sendNotSir + ADD_FULL_KEY;
  const exec = RECEIPT + TRANSFER + FEES.createAccount.exec + ADD_FULL_KEY;
  t.equal(send, 824_947_687_500n, 'the snapshot gives the gas issue 12 measured on nearcore');
  t.equal(
    c.account('alice.near')!.amount,
    99n * NEAR - send * GAS_PRICE - exec * PURCHASE,
    'implicit creation is paid up front',
  );
  c.block();
  const createdAt = c.height;
  c.settle();
  const charge = ACCOUNT_CREATION_CHARGE - GAS_PRICE * FEES.createAccount.exec;
  t.equal(c.account('alice.near')!.amount, 99n * NEAR - (send + exec) * GAS_PRICE - charge);
  t.equal(c.account(id)!.amount, NEAR);
  t.equal(c.account(id)!.storageUsage, ONE_KEY_STORAGE);
  t.same(
    c.accessKey(id, { keyType: KeyType.ED25519, data: fromHex(id) })!.nonce,
    BigInt(createdAt - 1) * 1_000_000n,
  );
  const next = signTx(implicit, id, 'bob.near', BigInt(createdAt - 1) * 1_000_000n + 1n, [
    { type: 'Transfer', deposit: 1n },
  ]);
  c.block([next.bytes]);
  c.settle();
  t.equal(c.account('bob.near')!.amount, 10n * NEAR + 1n, 'the new account can sign');
  t.equal(c.totalBalance() + c.burnt, 110n * NEAR);
});

t.test('a strict nonce (TransactionV1, NonceMode::Strict) is exactly the next one', async (t) => {
  const c = chain();
  const strict = { nonceMode: 'Strict' as const };
  const transfer = [{ type: 'Transfer' as const, deposit: 1n }];
  const first = c.block([signTx(alice, 'alice.near', 'bob.near', 1n, transfer, strict).bytes]);
  t.same((first.outcomes[0]!.status as { error?: unknown }).error, undefined, 'ak + 1 passes');
  // nearcore's verify_nonce: a gap, the same nonce and an older one are all InvalidNonce.
  const refused = c.block([
    signTx(alice, 'alice.near', 'bob.near', 3n, transfer, strict).bytes,
    signTx(alice, 'alice.near', 'bob.near', 1n, transfer, strict).bytes,
  ]);
  t.same(
    refused.outcomes.slice(0, 2).map((o) => (o.status as { error: unknown }).error),
    [
      { InvalidTxError: { InvalidNonce: { tx_nonce: 3n, ak_nonce: 1n } } },
      { InvalidTxError: { InvalidNonce: { tx_nonce: 1n, ak_nonce: 1n } } },
    ],
  );
  const monotonic = c.block([
    signTx(alice, 'alice.near', 'bob.near', 7n, transfer, { nonceMode: 'Monotonic' }).bytes,
  ]);
  t.same((monotonic.outcomes[0]!.status as { error?: unknown }).error, undefined, 'a V1 may skip ahead');
  const next = c.block([signTx(alice, 'alice.near', 'bob.near', 8n, transfer, strict).bytes]);
  t.same((next.outcomes[0]!.status as { error?: unknown }).error, undefined, 'strict after the new nonce');
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
          cost: (11n * NEAR + (RECEIPT + TRANSFER) * (GAS_PRICE + PURCHASE)).toString(),
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
  // Gas bought at the burn price leaves no surplus, so no gas refund joins the queue.
  c.gasPrice = PURCHASE;
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
  c.settle();
  t.equal(c.totalBalance() + c.burnt, 110n * NEAR);
});

t.test(
  'processed receipts: incoming ones keep their bytes and are marked; local ones are encoded',
  async (t) => {
    const c = chain();
    const toBob = signTx(alice, 'alice.near', 'bob.near', 1n, [{ type: 'Transfer', deposit: 1n }]);
    const toSelf = signTx(alice, 'alice.near', 'alice.near', 2n, [{ type: 'Transfer', deposit: 1n }]);
    const b1 = c.block([toBob.bytes, toSelf.bytes]);
    const b58 = base58Encode;
    const local = receiptIdFromTransaction(toSelf.hash, c.height);
    const selfRun = b1.res.processedReceipts.filter((r) => b58(r.receiptId) === b58(local));
    t.equal(selfRun.length, 1, 'the local receipt ran in the chunk of its transaction');
    t.equal(selfRun[0]!.incoming, false);
    t.same(decodeReceipt(selfRun[0]!.bytes).receiptId, local, 'and was encoded there');
    const toBobId = receiptIdFromTransaction(toBob.hash, c.height);
    const sent = c.pending.find((b) => b58(decodeReceipt(b).receiptId) === b58(toBobId));
    t.ok(sent, 'the receipt to bob goes out');
    const b2 = c.block();
    const ran = b2.res.processedReceipts.find((r) => b58(r.receiptId) === b58(toBobId));
    t.equal(ran?.incoming, true, "bob's chunk ran it as an incoming receipt");
    t.equal(ran?.bytes, sent, 'with the very bytes it came with');
    t.ok(
      b2.res.processedReceipts.every((r) => r.incoming),
      'every receipt that chunk ran came in (the refunds too)',
    );
  },
);

// nearcore's UniqueChunkTransactions (protocol 85, runtime/src/tests/apply.rs): a transaction's hash
// is its outcome id, so a chunk holding one twice processes the first and skips the repeat, which
// would otherwise record an InvalidNonce failure under the same id.
t.test('a transaction repeated in a chunk is applied once, with one outcome', async (t) => {
  const c = chain();
  const tx = signTx(alice, 'alice.near', 'bob.near', 1n, [{ type: 'Transfer', deposit: NEAR }]);
  const other = signTx(alice, 'alice.near', 'bob.near', 2n, [{ type: 'Transfer', deposit: NEAR }]);
  const b1 = c.block([tx.bytes, tx.bytes, other.bytes, tx.bytes]);
  t.same(
    b1.outcomes.map((o) => base58Encode(o.id)),
    [base58Encode(tx.hash), base58Encode(other.hash)],
    'one outcome per hash, in the chunk’s order',
  );
  t.ok(
    b1.outcomes.every((o) => o.status.kind === 'SuccessReceiptId'),
    'no InvalidNonce for the repeats',
  );
  t.equal(b1.res.outgoingReceipts.length, 2, 'a receipt each');
  t.equal(
    c.account('alice.near')!.amount,
    chain().account('alice.near')!.amount - 2n * NEAR - 2n * (RECEIPT + TRANSFER) * (GAS_PRICE + PURCHASE),
  );
});
