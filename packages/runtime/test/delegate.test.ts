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

function delegateAction(nonce: bigint, maxBlockHeight: bigint, deposit: bigint) {
  const d: DelegateAction = {
    senderId: 'sender.near',
    receiverId: 'bob.near',
    actions: [{ type: 'Transfer', deposit }],
    nonce,
    maxBlockHeight,
    publicKey: sender.publicKey,
  };
  const signature = {
    keyType: KeyType.ED25519,
    data: new Uint8Array(sign(null, delegateActionHash(d), sender.privateKey)),
  };
  return { type: 'Delegate', delegateAction: d, signature } as const;
}

t.test('the relayer pays fees and deposit to the yocto; the sender nonce moves', async (t) => {
  const c = new TestChain();
  c.addAccount('relayer.near', 10n * NEAR, relayer);
  c.addAccount('sender.near', NEAR, sender);
  c.addAccount('bob.near', NEAR, bob);
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
  const c = new TestChain();
  c.addAccount('relayer.near', 10n * NEAR, relayer);
  c.addAccount('sender.near', NEAR, sender);
  c.addAccount('bob.near', NEAR, bob);
  const expired = signTx(relayer, 'relayer.near', 'sender.near', 1n, [delegateAction(3n, 1n, NEAR)]);
  c.block([expired.bytes]);
  t.same(c.block().outcomes[0]!.status, {
    kind: 'Failure',
    error: { ActionError: { index: 0, kind: 'DelegateActionExpired' } },
  });
  const stale = signTx(relayer, 'relayer.near', 'sender.near', 2n, [delegateAction(0n, 100n, NEAR)]);
  c.block([stale.bytes]);
  t.same(c.block().outcomes[0]!.status, {
    kind: 'Failure',
    error: {
      ActionError: { index: 0, kind: { DelegateActionInvalidNonce: { delegate_nonce: 0n, ak_nonce: 0n } } },
    },
  });
  c.settle();
  t.equal(c.account('bob.near')!.amount, NEAR);
  t.equal(c.totalBalance() + c.burnt, 12n * NEAR, 'deposits and unspent gas came back');
});

t.test(
  "a delegate sent to another account than its sender, or signed by a key it does not have: nearcore's order",
  async (t) => {
    const c = new TestChain();
    c.addAccount('relayer.near', 10n * NEAR, relayer);
    c.addAccount('sender.near', NEAR, sender);
    c.addAccount('bob.near', NEAR, bob);
    // apply_delegate_action: signature, then expiry, then the sender against the receipt's receiver.
    const elsewhere = signTx(relayer, 'relayer.near', 'bob.near', 1n, [delegateAction(3n, 100n, NEAR)]);
    c.block([elsewhere.bytes]);
    t.same(c.block().outcomes[0]!.status, {
      kind: 'Failure',
      error: {
        ActionError: {
          index: 0,
          kind: {
            DelegateActionSenderDoesNotMatchTxReceiver: { sender_id: 'sender.near', receiver_id: 'bob.near' },
          },
        },
      },
    });
    // Expired and misaddressed: the expiry is reported.
    const both = signTx(relayer, 'relayer.near', 'bob.near', 2n, [delegateAction(4n, 1n, NEAR)]);
    c.block([both.bytes]);
    t.same(c.block().outcomes[0]!.status, {
      kind: 'Failure',
      error: { ActionError: { index: 0, kind: 'DelegateActionExpired' } },
    });
    // Signed by a key the sender does not have (bob's, naming itself as the sender's key).
    const d: DelegateAction = {
      senderId: 'sender.near',
      receiverId: 'bob.near',
      actions: [{ type: 'Transfer', deposit: NEAR }],
      nonce: 5n,
      maxBlockHeight: 100n,
      publicKey: bob.publicKey,
    };
    const foreign = {
      type: 'Delegate',
      delegateAction: d,
      signature: {
        keyType: KeyType.ED25519,
        data: new Uint8Array(sign(null, delegateActionHash(d), bob.privateKey)),
      },
    } as const;
    c.block([signTx(relayer, 'relayer.near', 'sender.near', 3n, [foreign]).bytes]);
    t.same(c.block().outcomes[0]!.status, {
      kind: 'Failure',
      error: {
        ActionError: {
          index: 0,
          kind: {
            DelegateActionAccessKeyError: {
              AccessKeyNotFound: { account_id: 'sender.near', public_key: formatPublicKey(bob.publicKey) },
            },
          },
        },
      },
    });
    c.settle();
    t.equal(c.account('bob.near')!.amount, NEAR, 'no transfer ran');
    t.equal(c.totalBalance() + c.burnt, 12n * NEAR, 'deposits and unspent gas came back');
  },
);
