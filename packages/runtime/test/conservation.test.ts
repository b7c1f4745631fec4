// Money and storage under every action a transaction can carry. Random transactions, many of them
// failing, run block after block at a moving gas price: transfers to named, NEAR- and ETH-implicit and
// missing accounts; sub-accounts created and deleted; full-access and function-call keys added and
// deleted; gas keys added, funded, drained, signed with and deleted; stakes; local deploys, global
// deploys and uses of global contracts; function calls with deposits; deterministic state inits; and
// meta transactions carrying any of the plain ones. After every block, balances + locked + gas-key
// balances + burnt + the value of every receipt in flight is what it was at the start, and every
// account's storage_usage is what its records add up to by nearcore's storage rules.
import { sign } from 'node:crypto';
import {
  type AccessKey,
  type Action,
  type DelegateAction,
  decodeAccessKey,
  delegateActionHash,
  delegateActionV2Hash,
  deriveDeterministicAccountId,
  KeyType,
  type StateInit,
  sha256,
  toHex,
} from '@nearlite/primitives';
import type { ExecutionOutcome } from '@nearlite/runtime';
import { TrieKeyCol, trieKeyGasKeyNonce } from '@nearlite/trie';
import t from 'tap';
import { CODE, CODE_HASH } from './global_fixtures.js';
import { type Key, keyFromSeed, NEAR, signTx, TestChain, vmRuntime, wat } from './helpers.js';
import { hexCol, inFlight, rng } from './in_flight.js';
import { storageMismatch } from './storage_records.js';

/** A second global contract, so a hash and an account can name different code. */
const OTHER = wat('(module (memory 1) (func (export "set")))');
const FULL: AccessKey = { nonce: 0n, permission: { kind: 'FullAccess' } };

/** Every gas key's balance: value kept on keys is no account's and must still be counted. */
function gasKeyBalances(c: TestChain): bigint {
  let sum = 0n;
  const col = hexCol(TrieKeyCol.AccessKey);
  for (const [k, v] of c.state) {
    // A gas key's nonce rows sit under the key, eight bytes each; a key's own value is longer.
    if (!k.startsWith(col) || v.length === 8) continue;
    sum += decodeAccessKey(v).permission.gasKey?.balance ?? 0n;
  }
  return sum;
}

/** The names of the failures an outcome reports, as nearcore's error kinds. */
function failureKind(o: ExecutionOutcome): string | null {
  if (o.status.kind !== 'Failure') return null;
  const err = o.status.error as { ActionError?: { kind: unknown } };
  const kind = err.ActionError?.kind ?? err;
  return typeof kind === 'string' ? kind : Object.keys(kind as object)[0]!;
}

t.test('every transaction action conserves money and storage, block after block', async (t) => {
  const random = rng(Number(process.env.CONSERVATION_FUZZ_SEED ?? 11));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const amount = () => BigInt(Math.floor(random() * 3e6)) * 10n ** 18n;
  const c = new TestChain(vmRuntime());
  c.gasLimit = 20_000_000_000_000n; // a few calls' worth: busy blocks delay receipts

  // The full-access key each account signs with; implicit accounts get theirs when they are created.
  const keys = new Map<string, Key>();
  const users = ['u0.near', 'u1.near', 'u2.near', 'u3.near', 'u4.near'];
  for (const [i, id] of users.entries()) {
    keys.set(id, keyFromSeed(10 + i));
    c.addAccount(id, 100n * NEAR, keys.get(id)!);
  }
  const implicit = [0, 1, 2].map((i) => {
    const key = keyFromSeed(60 + i);
    keys.set(toHex(key.publicKey.data), key);
    return toHex(key.publicKey.data);
  });
  const eth = [`0x${'ab'.repeat(20)}`, `0x${'0c'.repeat(20)}`];
  const gasKeyOf = (id: string) => keyFromSeed(90 + (id.length % 7));
  const extraKeys = [0, 1, 2].map((i) => keyFromSeed(200 + i));
  const deterministic = new Set<string>();
  // Holds a gas key and is deleted with it at the end; it signs nothing in between, so it has no
  // stake that would stop its deletion.
  const keeper = keyFromSeed(70);
  c.addAccount('keeper.near', 10n * NEAR, keeper);
  const initial = c.totalBalance();
  const total = () => c.totalBalance() + gasKeyBalances(c) + c.burnt + inFlight(c).value;

  // Keyed by account and key: an account signs with its own key and with the extra keys it added.
  const nonces = new Map<string, [string, Key, bigint]>();
  const nextNonce = (id: string, key = keys.get(id)!) => {
    const at = `${id}/${toHex(key.publicKey.data)}`;
    const n = (nonces.get(at)?.[2] ?? c.accessKey(id, key.publicKey)!.nonce) + 1n;
    nonces.set(at, [id, key, n]);
    return n;
  };
  const gasNonces = new Map<string, bigint>();
  const gasNonceRow = (id: string, index: number) =>
    c.state.get(toHex(trieKeyGasKeyNonce(id, gasKeyOf(id).publicKey, index)));
  const nextGasNonce = (id: string, index: number): bigint => {
    const at = `${id}/${index}`;
    const n = (gasNonces.get(at) ?? Buffer.from(gasNonceRow(id, index)!).readBigUInt64LE(0)) + 1n;
    gasNonces.set(at, n);
    return n;
  };

  // u0 publishes CODE by hash and under its name, so state inits and uses have code to find.
  c.block([
    signTx(keys.get('u0.near')!, 'u0.near', 'u0.near', nextNonce('u0.near'), [
      { type: 'DeployGlobalContract', code: CODE, deployMode: 0 },
      { type: 'DeployGlobalContract', code: CODE, deployMode: 1 },
    ]).bytes,
  ]);
  c.settle();
  t.equal(total(), initial, 'publishing burns its storage cost and nothing else');
  // One of each kind of account and key the checks below look for, whatever the seed draws later.
  const by = (id: string, receiver: string, actions: Action[]) =>
    signTx(keys.get(id)!, id, receiver, nextNonce(id), actions).bytes;
  const firstInit: StateInit = {
    code: { kind: 'CodeHash', hash: CODE_HASH },
    data: [[Uint8Array.of(1), Uint8Array.of(2)]],
  };
  deterministic.add(deriveDeterministicAccountId(firstInit));
  c.block([
    ...['u1.near', 'u2.near', 'keeper.near'].map((id) => {
      const publicKey = gasKeyOf(id).publicKey;
      const actions: Action[] = [
        {
          type: 'AddKey',
          publicKey,
          accessKey: { nonce: 0n, permission: { kind: 'FullAccess', gasKey: { balance: 0n, numNonces: 3 } } },
        },
        { type: 'TransferToGasKey', publicKey, deposit: 2n * NEAR },
      ];
      return id === 'keeper.near' ? signTx(keeper, id, id, 1n, actions).bytes : by(id, id, actions);
    }),
    by('u4.near', 'u4.near', [
      {
        type: 'AddKey',
        publicKey: extraKeys[0]!.publicKey,
        accessKey: {
          nonce: 0n,
          permission: { kind: 'FunctionCall', allowance: NEAR, receiverId: 'u1.near', methodNames: [] },
        },
      },
    ]),
    by('u2.near', implicit[0]!, [{ type: 'Transfer', deposit: NEAR }]),
    by('u2.near', eth[0]!, [{ type: 'Transfer', deposit: NEAR }]),
    by('u3.near', 'u3.near', [
      { type: 'Stake', stake: 5n * NEAR, publicKey: keys.get('u3.near')!.publicKey },
    ]),
    by('u4.near', deriveDeterministicAccountId(firstInit), [
      { type: 'DeterministicStateInit', ...firstInit, deposit: NEAR },
    ]),
  ]);
  c.settle();
  t.equal(total(), initial, 'the opening block adds up');

  let seq = 0;
  const everyone = () => [...keys.keys(), ...eth, ...deterministic, 'ghost.near'];
  const live = () =>
    [...keys.keys()].filter((id) => c.account(id) && c.accessKey(id, keys.get(id)!.publicKey));

  /** The actions of one plain transaction of `signer`, and whom they go to. */
  function plain(signer: string): { receiver: string; actions: Action[] } {
    const roll = random();
    if (roll < 0.16) {
      // Implicit receivers are few among the named ones: they get a share of their own.
      const to = random();
      const receiver = to < 0.2 ? pick(implicit) : to < 0.35 ? pick(eth) : pick(everyone());
      return { receiver, actions: [{ type: 'Transfer', deposit: amount() }] };
    }
    if (roll < 0.26) {
      const receiver = `s${seq++}.${signer}`;
      const key = keyFromSeed(100 + (seq % 90));
      keys.set(receiver, key);
      const actions: Action[] = [{ type: 'CreateAccount' }];
      if (random() < 0.85) actions.push({ type: 'Transfer', deposit: amount() });
      actions.push({ type: 'AddKey', publicKey: key.publicKey, accessKey: FULL });
      return { receiver, actions };
    }
    if (roll < 0.32)
      return { receiver: signer, actions: [{ type: 'DeleteAccount', beneficiaryId: pick(everyone()) }] };
    if (roll < 0.42) {
      const key = pick(extraKeys).publicKey;
      const change: Action =
        random() < 0.3
          ? { type: 'DeleteKey', publicKey: key }
          : {
              type: 'AddKey',
              publicKey: key,
              accessKey:
                random() < 0.5
                  ? FULL
                  : {
                      nonce: 0n,
                      permission: {
                        kind: 'FunctionCall',
                        allowance: random() < 0.5 ? null : amount(),
                        receiverId: pick(everyone()),
                        methodNames: random() < 0.5 ? [] : ['set'],
                      },
                    },
            };
      return { receiver: signer, actions: [change, { type: 'Transfer', deposit: amount() / 10n }] };
    }
    if (roll < 0.54) {
      const publicKey = gasKeyOf(signer).publicKey;
      const g = random();
      const actions: Action[] =
        g < 0.3
          ? [
              {
                type: 'AddKey',
                publicKey,
                accessKey: {
                  nonce: 0n,
                  permission: {
                    kind: 'FullAccess',
                    gasKey: { balance: 0n, numNonces: 1 + Math.floor(random() * 3) },
                  },
                },
              },
              { type: 'TransferToGasKey', publicKey, deposit: amount() / 4n },
            ]
          : g < 0.6
            ? [{ type: 'TransferToGasKey', publicKey, deposit: amount() / 4n }]
            : g < 0.85
              ? [{ type: 'WithdrawFromGasKey', publicKey, amount: amount() / 4n }]
              : [{ type: 'DeleteKey', publicKey }];
      return { receiver: random() < 0.9 ? signer : pick(everyone()), actions };
    }
    if (roll < 0.6) {
      const stake = pick([0n, amount() / 10n, amount() / 10n, 10n * NEAR, 1000n * NEAR]);
      return {
        receiver: signer,
        actions: [{ type: 'Stake', stake, publicKey: keys.get(signer)!.publicKey }],
      };
    }
    if (roll < 0.7) {
      const d = random();
      const actions: Action[] =
        d < 0.35
          ? [{ type: 'DeployContract', code: pick([CODE, OTHER]) }]
          : d < 0.55
            ? [
                {
                  type: 'DeployGlobalContract',
                  code: pick([CODE, OTHER]),
                  deployMode: random() < 0.5 ? 0 : 1,
                },
              ]
            : [
                {
                  type: 'UseGlobalContract',
                  identifier: pick([
                    { kind: 'CodeHash', hash: CODE_HASH } as const,
                    { kind: 'CodeHash', hash: sha256(OTHER) } as const,
                    { kind: 'CodeHash', hash: new Uint8Array(32).fill(7) } as const,
                    { kind: 'AccountId', accountId: pick(users) } as const,
                  ]),
                },
              ];
      return { receiver: signer, actions };
    }
    if (roll < 0.88) {
      const args = new Uint8Array(Math.floor(random() * 200)).fill(seq & 0xff);
      const gas = BigInt(3 + Math.floor(random() * 40)) * 10n ** 12n;
      const deposit = random() < 0.5 ? 0n : amount();
      return {
        receiver: pick([...everyone(), ...users, ...users]),
        actions: [
          { type: 'FunctionCall', methodName: pick(['set', 'set', 'get', 'nope']), args, gas, deposit },
        ],
      };
    }
    const init: StateInit = {
      code: pick([
        { kind: 'CodeHash', hash: CODE_HASH } as const,
        { kind: 'AccountId', accountId: 'u0.near' } as const,
        { kind: 'CodeHash', hash: new Uint8Array(32).fill(7) } as const,
      ]),
      data: Array.from({ length: Math.floor(random() * 3) }, (_, i) => [
        Uint8Array.of(i, seq & 0xff),
        new Uint8Array(Math.floor(random() * 300)),
      ]),
    };
    const receiver = deriveDeterministicAccountId(init);
    deterministic.add(receiver);
    const deposit = pick([0n, NEAR / 100n, amount()]);
    return { receiver, actions: [{ type: 'DeterministicStateInit', ...init, deposit }] };
  }

  /** A meta transaction: `relayer` pays for `sender`'s plain actions, sometimes expired or forged. */
  function delegate(relayer: string, sender: string): Uint8Array {
    const { receiver, actions } = plain(sender);
    // A DelegateV2 may take its nonce from one of the sender's gas key's; the relayer still pays.
    const byGasKey = random() < 0.3 && gasNonceRow(sender, 0) !== undefined;
    const senderKey = byGasKey ? gasKeyOf(sender) : keys.get(sender)!;
    const d: DelegateAction = {
      senderId: sender,
      receiverId: receiver,
      actions,
      nonce: random() < 0.1 ? 1n : byGasKey ? nextGasNonce(sender, 0) : nextNonce(sender),
      maxBlockHeight: BigInt(c.height + (random() < 0.1 ? 0 : 10)),
      publicKey: senderKey.publicKey,
      ...(byGasKey ? { nonceIndex: 0 } : {}),
    };
    const signer = random() < 0.05 ? keyFromSeed(250) : senderKey;
    const hash = byGasKey ? delegateActionV2Hash(d) : delegateActionHash(d);
    const signature = { keyType: KeyType.ED25519, data: new Uint8Array(sign(null, hash, signer.privateKey)) };
    return signTx(keys.get(relayer)!, relayer, sender, nextNonce(relayer), [
      { type: byGasKey ? 'DelegateV2' : 'Delegate', delegateAction: d, signature },
    ]).bytes;
  }

  /** One of `signer`'s function-call keys (not a gas key) and its permission, if it has one. */
  function functionCallKeyOf(signer: string) {
    for (const key of extraKeys) {
      const permission = c.accessKey(signer, key.publicKey)?.permission;
      if (permission?.kind === 'FunctionCall' && !permission.gasKey) return { key, permission };
    }
    return null;
  }

  /** A call signed with `signer`'s function-call key, which pays its gas from the allowance. */
  function byFunctionCallKey(signer: string): Uint8Array {
    const { key, permission } = functionCallKeyOf(signer)!;
    const gas = BigInt(3 + Math.floor(random() * 40)) * 10n ** 12n;
    const methodName = permission.methodNames[0] ?? pick(['set', 'get']);
    return signTx(key, signer, permission.receiverId, nextNonce(signer, key), [
      { type: 'FunctionCall', methodName, args: Uint8Array.of(seq & 0xff), gas, deposit: 0n },
    ]).bytes;
  }

  const seen = {
    success: 0,
    failure: 0,
    delayed: 0,
    kinds: new Set<string>(),
    accounts: new Set<string>(),
    deleted: new Set<string>(),
    locked: false,
    gasKeyFunded: false,
    gasKeySigned: 0,
    functionCallKeySigned: 0,
    delegated: 0,
  };
  const tally = (outcomes: readonly ExecutionOutcome[]) => {
    for (const o of outcomes) {
      const kind = failureKind(o);
      if (kind === null) seen.success++;
      else {
        seen.failure++;
        seen.kinds.add(kind);
      }
    }
  };
  const check = (label: string): boolean => {
    const now = total();
    if (now !== initial) {
      t.fail(
        `${label}: balances + gas keys + burnt + in flight ${now} !== ${initial} (diff ${now - initial})`,
      );
      return false;
    }
    const mismatch = storageMismatch(() => c.stateEntries());
    if (mismatch !== null) {
      t.fail(`${label}: ${mismatch}`);
      return false;
    }
    for (const id of [...keys.keys(), ...eth, ...deterministic]) {
      const a = c.account(id);
      if (!a) {
        if (seen.accounts.has(id)) seen.deleted.add(id);
        continue;
      }
      seen.accounts.add(id);
      if (a.locked > 0n) seen.locked = true;
    }
    if (gasKeyBalances(c) > 0n) seen.gasKeyFunded = true;
    return true;
  };

  for (let block = 0; block < 60; block++) {
    const txs: Uint8Array[] = [];
    const signers = live();
    for (let n = 0; n < 5 && signers.length > 0; n++) {
      const signer = pick(signers);
      const roll = random();
      if (roll < 0.15) {
        const sender = pick(signers);
        txs.push(delegate(signer, sender));
        seen.delegated++;
      } else if (roll < 0.27) {
        // Signed with a gas key, by an account that has one: the key pays for the gas.
        const holders = signers.filter((id) => gasNonceRow(id, 0) !== undefined);
        if (holders.length === 0) continue;
        const holder = pick(holders);
        const tried = Math.floor(random() * 3);
        const index = gasNonceRow(holder, tried) === undefined ? 0 : tried;
        const nonce = nextGasNonce(holder, index);
        const { receiver, actions } =
          random() < 0.5
            ? { receiver: pick(everyone()), actions: [{ type: 'Transfer', deposit: amount() } as const] }
            : plain(holder);
        txs.push(signTx(gasKeyOf(holder), holder, receiver, nonce, actions, { nonceIndex: index }).bytes);
        seen.gasKeySigned++;
      } else if (roll < 0.33) {
        // By an account that holds a function-call key.
        const withKeys = signers.filter((id) => functionCallKeyOf(id) !== null);
        if (withKeys.length === 0) continue;
        txs.push(byFunctionCallKey(pick(withKeys)));
        seen.functionCallKeySigned++;
      } else {
        const { receiver, actions } = plain(signer);
        txs.push(signTx(keys.get(signer)!, signer, receiver, nextNonce(signer), actions).bytes);
      }
    }
    // The price moves as a chain's does, so receipts are burnt at another price than they were bought.
    c.gasPrice = 100_000_000n + BigInt(Math.floor(random() * 20_000_000));
    const { res, outcomes } = c.block(txs);
    seen.delayed = Math.max(seen.delayed, res.delayedReceipts);
    tally(outcomes);
    for (const [at, [id, key]] of nonces) if (!c.accessKey(id, key.publicKey)) nonces.delete(at);
    for (const at of gasNonces.keys()) {
      const [id, index] = at.split('/') as [string, string];
      if (gasNonceRow(id, Number(index)) === undefined) gasNonces.delete(at);
    }
    if (!check(`block ${block}`)) return;
  }
  t.pass('after each of 60 blocks, money and every account’s storage_usage added up');
  const settle = (label: string) => {
    for (let n = 0, delayed = 1; n < 200 && (c.pending.length > 0 || delayed > 0); n++) {
      const { res, outcomes } = c.block();
      delayed = res.delayedReceipts;
      tally(outcomes);
    }
    return check(label);
  };
  if (!settle('settled')) return;
  // Every gas key left goes, drained to a quarter NEAR that is burnt with it: by a DeleteKey on one
  // account in two, with the whole account on the others.
  const holders = live().filter((id) => gasNonceRow(id, 0) !== undefined);
  const held = new Map<string, bigint>();
  const closing = holders.map((id, i) => {
    const publicKey = gasKeyOf(id).publicKey;
    const balance = c.accessKey(id, publicKey)!.permission.gasKey!.balance;
    const actions: Action[] = [];
    if (balance > NEAR / 4n)
      actions.push({ type: 'WithdrawFromGasKey', publicKey, amount: balance - NEAR / 4n });
    held.set(id, balance > NEAR / 4n ? NEAR / 4n : balance);
    // A staked account cannot be deleted: its key goes on its own.
    if (i % 2 === 0 || c.account(id)!.locked > 0n) actions.push({ type: 'DeleteKey', publicKey });
    else actions.push({ type: 'DeleteAccount', beneficiaryId: 'u0.near' });
    return signTx(keys.get(id)!, id, id, nextNonce(id), actions).bytes;
  });
  const keeperKey = gasKeyOf('keeper.near').publicKey;
  held.set('keeper.near', NEAR / 4n);
  closing.push(
    signTx(keeper, 'keeper.near', 'keeper.near', 2n, [
      { type: 'WithdrawFromGasKey', publicKey: keeperKey, amount: 2n * NEAR - NEAR / 4n },
      { type: 'DeleteAccount', beneficiaryId: 'u0.near' },
    ]).bytes,
  );
  holders.push('keeper.near');
  const burntBefore = c.burnt;
  tally(c.block(closing).outcomes);
  if (!settle('gas keys deleted')) return;
  const gone = holders.filter((id) => gasNonceRow(id, 0) === undefined);
  t.ok(gone.length > 0, `gas keys were deleted with what they held (${gone.length} of ${holders.length})`);
  t.ok(
    gone.some((id) => c.account(id) === null) && gone.some((id) => c.account(id) !== null),
    'by a DeleteKey and with their account',
  );
  const burnt = gone.reduce((sum, id) => sum + held.get(id)!, 0n);
  t.ok(c.burnt - burntBefore > burnt, 'what they held was burnt, and the fees');
  t.equal(c.pending.length, 0, 'nothing is in flight once settled');
  t.equal(
    c.totalBalance() + gasKeyBalances(c) + c.burnt,
    initial,
    'settled balances + gas keys + burnt = the start',
  );
  t.comment(
    JSON.stringify({
      ...seen,
      kinds: [...seen.kinds].sort(),
      accounts: seen.accounts.size,
      deleted: seen.deleted.size,
    }),
  );
  t.ok(seen.success > 200 && seen.failure > 30, 'receipts both succeeded and failed');
  t.ok(seen.kinds.size >= 10, `failures of ${seen.kinds.size} kinds`);
  t.ok(
    [...seen.accounts].some((id) => /^s\d+\./.test(id)) && seen.deleted.size > 1,
    'sub-accounts were created, and accounts deleted',
  );
  t.ok(seen.delayed > 0, 'busy blocks delayed receipts');
  t.ok(seen.locked, 'a stake locked balance');
  t.ok(seen.gasKeyFunded && seen.gasKeySigned > 0, 'gas keys were funded and signed with');
  t.ok(seen.functionCallKeySigned > 0, 'function-call keys signed calls');
  t.ok(
    implicit.some((id) => seen.accounts.has(id)),
    'a NEAR-implicit account was created',
  );
  t.ok(
    eth.some((id) => seen.accounts.has(id)),
    'an ETH-implicit account was created',
  );
  t.ok(
    [...deterministic].some((id) => seen.accounts.has(id)),
    'a deterministic account was created',
  );
});
