// Meta transactions (NEP-366): the relayer pays every fee and deposit, the sender's signature and
// nonce are checked when the Delegate action runs, and the inner receipt carries the relayer as signer.
import { sign } from 'node:crypto';
import { type DelegateAction, delegateActionHash, formatPublicKey, KeyType } from '@nearlite/primitives';
import t from 'tap';
import { GAS_PRICE, keyFromSeed, NEAR, signTx, TestChain } from './helpers.js';
import { FEES } from './snapshot.js';

const RECEIPT = FEES.receipt.exec;
const TRANSFER = FEES.transfer.exec;
const DELEGATE = FEES.delegate.exec;

const relayer = keyFromSeed(1);
const sender = keyFromSeed(2);
const bob = keyFromSeed(3);

/** A delegate action of sender.near transferring `deposit` to bob.near, signed by `key` (the sender's). */
function delegateAction(nonce: bigint, maxBlockHeight: bigint, deposit: bigint, key = sender) {
  const d: DelegateAction = {
    senderId: 'sender.near',
    receiverId: 'bob.near',
    actions: [{ type: 'Transfer', deposit }],
    nonce,
    maxBlockHeight,
    publicKey: key.publicKey,
  };
  const signature = {
    keyType: KeyType.ED25519,
    data: new Uint8Array(sign(null, delegateActionHash(d), key.privateKey)),
  };
  return { type: 'Delegate', delegateAction: d, signature } as const;
}

/** The status of a receipt whose first action failed with `kind`. */
const failed = (kind: unknown) => ({ kind: 'Failure', error: { ActionError: { index: 0, kind } } });

/** The relayer with 10 NEAR, the sender and bob with 1 each, every one with its own key. */
function threeAccounts(): TestChain {
  const c = new TestChain();
  c.addAccount('relayer.near', 10n * NEAR, relayer);
  c.addAccount('sender.near', NEAR, sender);
  c.addAccount('bob.near', NEAR, bob);
  return c;
}

t.test('the relayer pays fees and deposit to the yocto; the sender nonce moves', async (t) => {
  const c = threeAccounts();
  const tx = signTx(relayer, 'relayer.near', 'sender.near', 1n, [delegateAction(3n, 100n, 2n * NEAR)]);
  const { outcomes } = c.block([tx.bytes]);
  t.equal(outcomes[0]!.gasBurnt, RECEIPT + DELEGATE + TRANSFER, 'send fees include the inner actions');
  const outer = c.block().outcomes[0]!;
  t.equal(outer.status.kind, 'SuccessValue');
  t.equal(outer.gasBurnt, RECEIPT + DELEGATE + TRANSFER, 'exec of the Delegate burns the inner send fees');
  t.equal(outer.receiptIds.length, 2, 'the inner receipt, then the price surplus refunded to the relayer');
  t.equal(c.accessKey('sender.near', sender.publicKey)!.nonce, 3n);
  const inner = c.block().outcomes[0]!;
  t.equal(inner.executorId, 'bob.near');
  t.equal(inner.gasBurnt, RECEIPT + TRANSFER);
  c.settle();
  t.equal(c.account('bob.near')!.amount, 3n * NEAR);
  t.equal(c.account('sender.near')!.amount, NEAR, 'the sender pays nothing');
  const burnt = (3n * RECEIPT + 2n * DELEGATE + 3n * TRANSFER) * GAS_PRICE;
  t.equal(c.account('relayer.near')!.amount, 10n * NEAR - 2n * NEAR - burnt);
  t.equal(c.totalBalance() + c.burnt, 12n * NEAR);
});

t.test('an expired or replayed delegate action fails with nearcore kinds and refunds', async (t) => {
  const c = threeAccounts();
  const expired = signTx(relayer, 'relayer.near', 'sender.near', 1n, [delegateAction(3n, 1n, NEAR)]);
  c.block([expired.bytes]);
  t.same(c.block().outcomes[0]!.status, failed('DelegateActionExpired'));
  const stale = signTx(relayer, 'relayer.near', 'sender.near', 2n, [delegateAction(0n, 100n, NEAR)]);
  c.block([stale.bytes]);
  t.same(
    c.block().outcomes[0]!.status,
    failed({ DelegateActionInvalidNonce: { delegate_nonce: 0n, ak_nonce: 0n } }),
  );
  c.settle();
  t.equal(c.account('bob.near')!.amount, NEAR);
  t.equal(c.totalBalance() + c.burnt, 12n * NEAR, 'deposits and unspent gas came back');
});

t.test(
  "a delegate sent to another account than its sender, or signed by a key it does not have: nearcore's order",
  async (t) => {
    const c = threeAccounts();
    // apply_delegate_action: signature, then expiry, then the sender against the receipt's receiver.
    const elsewhere = signTx(relayer, 'relayer.near', 'bob.near', 1n, [delegateAction(3n, 100n, NEAR)]);
    c.block([elsewhere.bytes]);
    t.same(
      c.block().outcomes[0]!.status,
      failed({
        DelegateActionSenderDoesNotMatchTxReceiver: { sender_id: 'sender.near', receiver_id: 'bob.near' },
      }),
    );
    // Expired and misaddressed: the expiry is reported.
    const both = signTx(relayer, 'relayer.near', 'bob.near', 2n, [delegateAction(4n, 1n, NEAR)]);
    c.block([both.bytes]);
    t.same(c.block().outcomes[0]!.status, failed('DelegateActionExpired'));
    // Signed by a key the sender does not have (bob's, naming itself as the sender's key).
    const foreign = signTx(relayer, 'relayer.near', 'sender.near', 3n, [delegateAction(5n, 100n, NEAR, bob)]);
    c.block([foreign.bytes]);
    t.same(
      c.block().outcomes[0]!.status,
      failed({
        DelegateActionAccessKeyError: {
          AccessKeyNotFound: { account_id: 'sender.near', public_key: formatPublicKey(bob.publicKey) },
        },
      }),
    );
    c.settle();
    t.equal(c.account('bob.near')!.amount, NEAR, 'no transfer ran');
    t.equal(c.totalBalance() + c.burnt, 12n * NEAR, 'deposits and unspent gas came back');
  },
);
