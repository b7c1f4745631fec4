// Gas keys in the runtime (nearcore's access_keys.rs, actions.rs, verifier.rs): no yocto is made or
// lost between accounts, gas-key balances and what is burnt; an account's deletion burns its gas
// keys' balances (at most 1 NEAR in all) and removes their nonces; a Delegate, whose nonce is a
// plain one, cannot be signed by a gas key.
import { sign } from 'node:crypto';
import {
  type DelegateAction,
  delegateActionHash,
  delegateActionV2Hash,
  KeyType,
  type Transaction,
} from '@nearlite/primitives';
import { trieKeyAccessKeyPrefix, trieKeyGasKeyNonce } from '@nearlite/trie';
import t from 'tap';
import { type Key, keyFromSeed, NEAR, signTx, TestChain } from './helpers.js';
import { FEES } from './snapshot.js';

const alice = keyFromSeed(1);
const gas = keyFromSeed(2);
const bob = keyFromSeed(3);

function gasKeyBalances(c: TestChain): bigint {
  let sum = 0n;
  for (const pk of [alice.publicKey, gas.publicKey])
    sum += c.accessKey('alice.near', pk)?.permission.gasKey?.balance ?? 0n;
  return sum;
}

/** The transaction's outcomes, then its receipts' (the first is the transaction's own). */
/** An AddKey of `gas` as a full-access gas key with `numNonces` nonces and no balance. */
function addGasKey(numNonces: number): Transaction['actions'][number] {
  return {
    type: 'AddKey',
    publicKey: gas.publicKey,
    accessKey: { nonce: 0n, permission: { kind: 'FullAccess', gasKey: { balance: 0n, numNonces } } },
  };
}

function statusOf(c: TestChain, tx: { bytes: Uint8Array }) {
  const outcomes = [...c.block([tx.bytes]).outcomes, ...c.settle()];
  if (outcomes.length === 0) throw new Error('the transaction was not applied');
  return { tx: outcomes[0]!, receipt: outcomes[1], all: outcomes };
}

t.test('funded, used, and burnt with the account: every yocto accounted for', async (t) => {
  const c = new TestChain();
  c.addAccount('alice.near', 10n * NEAR, alice);
  c.addAccount('bob.near', NEAR, bob);
  const total = () => c.totalBalance() + gasKeyBalances(c) + c.burnt;
  const start = total();
  let nonce = 1n;
  const byAlice = (actions: Transaction['actions'], receiverId = 'alice.near') =>
    signTx(alice, 'alice.near', receiverId, nonce++, actions);

  statusOf(
    c,
    byAlice([addGasKey(3), { type: 'TransferToGasKey', publicKey: gas.publicKey, deposit: 2n * NEAR }]),
  );
  t.equal(c.accessKey('alice.near', gas.publicKey)?.permission.gasKey?.balance, 2n * NEAR);
  t.equal(total(), start, 'funding moves balance, nothing else');

  // A transfer signed with the gas key: the key pays the gas, the account the deposit.
  const aliceBefore = c.account('alice.near')!.amount;
  const nonceRow = c.state.get(
    Buffer.from(trieKeyGasKeyNonce('alice.near', gas.publicKey, 2)).toString('hex'),
  )!;
  const current = Buffer.from(nonceRow).readBigUInt64LE(0);
  const used = statusOf(
    c,
    signTx(gas, 'alice.near', 'bob.near', current + 1n, [{ type: 'Transfer', deposit: 7n }], {
      nonceIndex: 2,
    }),
  );
  t.equal(used.receipt?.status.kind, 'SuccessValue');
  t.equal(c.account('alice.near')!.amount, aliceBefore - 7n);
  t.equal(total(), start, 'gas paid from the key is burnt or refunded to it');

  // Deleting the account is refused while its gas keys hold more than 1 NEAR between them.
  const tooMuch = statusOf(c, byAlice([{ type: 'DeleteAccount', beneficiaryId: 'bob.near' }]));
  const failure =
    tooMuch.receipt?.status.kind === 'Failure'
      ? (tooMuch.receipt.status.error as Record<string, unknown>)
      : null;
  t.match(failure, {
    ActionError: { kind: { GasKeyBalanceTooHigh: { account_id: 'alice.near', public_key: null } } },
  });

  // Drained to under 1 NEAR, the account goes, its gas keys' balance burnt and their nonces removed.
  const keyBalance = c.accessKey('alice.near', gas.publicKey)!.permission.gasKey!.balance;
  statusOf(
    c,
    byAlice([{ type: 'WithdrawFromGasKey', publicKey: gas.publicKey, amount: keyBalance - NEAR / 4n }]),
  );
  t.equal(c.accessKey('alice.near', gas.publicKey)!.permission.gasKey!.balance, NEAR / 4n);
  t.equal(total(), start);
  const burntBefore = c.burnt;
  const gone = statusOf(c, byAlice([{ type: 'DeleteAccount', beneficiaryId: 'bob.near' }]));
  t.equal(gone.receipt?.status.kind, 'SuccessValue', 'the deletion ran');
  t.ok(c.burnt - burntBefore >= NEAR / 4n, 'the key’s quarter NEAR was burnt');
  t.equal(c.account('alice.near'), null);
  const prefix = Buffer.from(trieKeyAccessKeyPrefix('alice.near')).toString('hex');
  t.same(
    [...c.state.keys()].filter((k) => k.startsWith(prefix)),
    [],
    'no key and no nonce row is left',
  );
  t.equal(total(), start);
});

t.test('a Delegate signed by a gas key fails with DelegateActionRequiresNonGasKey', async (t) => {
  const c = new TestChain();
  c.addAccount('alice.near', 10n * NEAR, alice);
  c.addAccount('bob.near', 10n * NEAR, bob);
  statusOf(c, signTx(alice, 'alice.near', 'alice.near', 1n, [addGasKey(1)]));
  const d: DelegateAction = {
    senderId: 'alice.near',
    receiverId: 'bob.near',
    actions: [{ type: 'Transfer', deposit: 1n }],
    nonce: 10n ** 9n,
    maxBlockHeight: 100n,
    publicKey: gas.publicKey,
  };
  const signature = {
    keyType: KeyType.ED25519,
    data: new Uint8Array(sign(null, delegateActionHash(d), gas.privateKey)),
  };
  const relayed = statusOf(
    c,
    signTx(bob, 'bob.near', 'alice.near', 1n, [{ type: 'Delegate', delegateAction: d, signature }]),
  );
  const receipt = relayed.all.find((o) => o.executorId === 'alice.near')!;
  t.same(receipt.status.kind === 'Failure' ? receipt.status.error : null, {
    ActionError: { index: 0, kind: { DelegateActionAccessKeyError: 'DelegateActionRequiresNonGasKey' } },
  });
});

function delegateV2(key: Key, d: DelegateAction) {
  const signature = {
    keyType: KeyType.ED25519,
    data: new Uint8Array(sign(null, delegateActionV2Hash(d), key.privateKey)),
  };
  return { type: 'DelegateV2', delegateAction: d, signature } as const;
}

t.test(
  'a DelegateV2 advances one of a gas key’s nonces, or a plain key’s own, and the relayer pays',
  async (t) => {
    const c = new TestChain();
    c.addAccount('alice.near', 10n * NEAR, alice);
    c.addAccount('bob.near', 10n * NEAR, bob);
    statusOf(c, signTx(alice, 'alice.near', 'alice.near', 1n, [addGasKey(2)]));
    const row = (i: number) =>
      Buffer.from(
        c.state.get(Buffer.from(trieKeyGasKeyNonce('alice.near', gas.publicKey, i)).toString('hex'))!,
      ).readBigUInt64LE(0);
    const base = row(1);
    const inner = (publicKey: Key['publicKey'], nonce: bigint, nonceIndex?: number): DelegateAction => ({
      senderId: 'alice.near',
      receiverId: 'bob.near',
      actions: [{ type: 'Transfer', deposit: 3n }],
      nonce,
      maxBlockHeight: 100n,
      publicKey,
      ...(nonceIndex === undefined ? {} : { nonceIndex }),
    });
    let relayerNonce = 1n;
    const relay = (action: ReturnType<typeof delegateV2>) => {
      const r = statusOf(c, signTx(bob, 'bob.near', 'alice.near', relayerNonce++, [action]));
      const receipt = r.all.find((o) => o.executorId === 'alice.near')!;
      return { r, receipt, error: receipt.status.kind === 'Failure' ? receipt.status.error : null };
    };

    const bobBefore = c.account('bob.near')!.amount;
    const ok = relay(delegateV2(gas, inner(gas.publicKey, base + 1n, 1)));
    t.equal(ok.error, null);
    t.equal(
      ok.r.tx.gasBurnt,
      FEES.receipt.sendNotSir + FEES.delegate.sendNotSir + FEES.transfer.sendNotSir,
      'priced as a Delegate: its own fee and its inner actions’ send fees',
    );
    t.equal(row(1), base + 1n, 'nonce 1 moved');
    t.equal(row(0), base, 'nonce 0 did not');
    t.equal(
      c.accessKey('alice.near', gas.publicKey)!.permission.gasKey!.balance,
      0n,
      'the gas key paid nothing',
    );
    t.ok(c.account('bob.near')!.amount < bobBefore, 'the relayer paid the fees (and got its transfer back)');

    t.same(relay(delegateV2(gas, inner(gas.publicKey, base + 1n, 1))).error, {
      ActionError: {
        index: 0,
        kind: { DelegateActionInvalidNonce: { delegate_nonce: base + 1n, ak_nonce: base + 1n } },
      },
    });
    t.same(relay(delegateV2(gas, inner(gas.publicKey, base + 2n, 2))).error, {
      ActionError: { index: 0, kind: { DelegateActionInvalidNonceIndex: { nonce_index: 2, num_nonces: 2 } } },
    });
    t.same(relay(delegateV2(alice, inner(alice.publicKey, 2n, 0))).error, {
      ActionError: { index: 0, kind: { DelegateActionAccessKeyError: 'DelegateActionRequiresGasKey' } },
    });
    t.same(relay(delegateV2(gas, inner(gas.publicKey, base + 5n))).error, {
      ActionError: { index: 0, kind: { DelegateActionAccessKeyError: 'DelegateActionRequiresNonGasKey' } },
    });
    // Signed as a V1 delegate, the same payload is not a DelegateV2's.
    const v1Signed = {
      ...delegateV2(gas, inner(gas.publicKey, base + 9n, 0)),
      signature: {
        keyType: KeyType.ED25519,
        data: new Uint8Array(
          sign(null, delegateActionHash(inner(gas.publicKey, base + 9n, 0)), gas.privateKey),
        ),
      },
    };
    t.same(relay(v1Signed).error, { ActionError: { index: 0, kind: 'DelegateActionInvalidSignature' } });
    const plain = relay(
      delegateV2(alice, inner(alice.publicKey, c.accessKey('alice.near', alice.publicKey)!.nonce + 1n)),
    );
    t.equal(plain.error, null, 'a plain key signs a DelegateV2 with a plain nonce');
  },
);
