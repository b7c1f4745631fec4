// Signatures are checked on worker threads before admission. What a client sees must not change:
// nearcore's InvalidSignature for a bad one, good transactions admitted alongside bad ones, and the
// errors nearcore checks before the signature (expiry, action rules) still winning over it, while
// the signature still wins over the checks after it (signer, nonce, balance).
import {
  actions as A,
  baseDecode,
  createTransaction,
  JsonRpcProvider,
  KeyPair,
  KeyPairSigner,
  type KeyPairString,
} from 'near-api-js';
import t, { type Test } from 'tap';
import { initHome, type RunningNode, readKeyFile, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

type Action = ReturnType<typeof A.transfer>;

function clients(node: RunningNode, secret: string) {
  const provider = new JsonRpcProvider({ url: node.url });
  const finalHash = async () =>
    Uint8Array.from(baseDecode((await provider.viewBlock({ finality: 'final' })).header.hash));
  const sign = async (
    signer: KeyPairSigner,
    o: {
      signerId?: string;
      receiverId?: string;
      nonce: bigint;
      actions?: Action[];
      blockHash?: Uint8Array;
      corrupt?: boolean;
    },
  ) => {
    const pk = await signer.getPublicKey();
    const tx = createTransaction(
      o.signerId ?? 'test.near',
      pk,
      o.receiverId ?? 'near',
      o.nonce,
      o.actions ?? [A.transfer(1n)],
      o.blockHash ?? (await finalHash()),
    );
    const bytes = Buffer.from((await signer.signTransaction(tx)).signedTransaction.encode());
    // A flipped bit inside the signature, which is the last 64 bytes.
    if (o.corrupt) bytes[bytes.length - 5]! ^= 0x01;
    return bytes.toString('base64');
  };
  const root = KeyPairSigner.fromSecretKey(secret as KeyPairString);
  const keyNonce = async (signer: KeyPairSigner) =>
    BigInt(
      (
        await provider.viewAccessKey({
          accountId: 'test.near',
          publicKey: (await signer.getPublicKey()).toString(),
        })
      ).nonce,
    );
  const send = (b64: string, waitUntil = 'EXECUTED_OPTIMISTIC') =>
    node.rpc<{ status: unknown }>('send_tx', { signed_tx_base64: b64, wait_until: waitUntil });
  return { root, sign, keyNonce, send };
}

/** A producer with 100 ms blocks, past its first blocks, and clients signing with its key. */
async function started(t: Test) {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '100']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 3);
  return { node, ...clients(node, readKeyFile(home).secret_key) };
}

const invalid = (e: unknown) => ({ TxExecutionError: { InvalidTxError: e } });

t.test('bad signatures refused, good ones admitted, in one concurrent burst', async (t) => {
  const { node, root, sign, keyNonce, send } = await started(t);

  // Eight more full-access keys, so each sender has its own nonces and arrival order cannot matter.
  const keys = Array.from({ length: 8 }, () => KeyPair.fromRandom('ed25519'));
  const added = await send(
    await sign(root, {
      receiverId: 'test.near',
      nonce: (await keyNonce(root)) + 1n,
      actions: keys.map((k) => A.addFullAccessKey(k.getPublicKey())),
    }),
  );
  t.same(added.body.result?.status, { SuccessValue: '' });
  const signers = keys.map((k) => new KeyPairSigner(k));
  const burst: { b64: string; good: boolean }[] = [];
  const before: bigint[] = [];
  for (const s of signers) {
    const n = await keyNonce(s);
    before.push(n);
    burst.push({ b64: await sign(s, { nonce: n + 1n, corrupt: true }), good: false });
    burst.push({ b64: await sign(s, { nonce: n + 2n }), good: true });
    burst.push({ b64: await sign(s, { nonce: n + 3n, corrupt: true }), good: false });
  }
  const answers = await Promise.all(burst.map((b) => send(b.b64)));
  answers.forEach((a, i) => {
    if (burst[i]!.good) t.same(a.body.result?.status, { SuccessValue: '' }, `good ${i} ran`);
    else {
      t.equal(a.body.error?.cause.name, 'INVALID_TRANSACTION', `bad ${i} refused`);
      t.same(a.body.error?.data, invalid('InvalidSignature'), `bad ${i} is InvalidSignature`);
    }
  });
  // Only the good transactions moved the nonces: each key's is its good transaction's.
  t.same(
    await Promise.all(signers.map((s) => keyNonce(s))),
    before.map((n) => n + 2n),
  );
  // broadcast_tx_async answers with the hash either way; only the good one lands.
  const s0 = signers[0]!;
  const n0 = await keyNonce(s0);
  const bad = await node.rpc<string>('broadcast_tx_async', [
    await sign(s0, { nonce: n0 + 1n, corrupt: true }),
  ]);
  t.match(bad.body.result, /^[1-9A-HJ-NP-Za-km-z]{43,44}$/);
  const good = await node.rpc<{ status: unknown }>('broadcast_tx_commit', [
    await sign(s0, { nonce: n0 + 2n }),
  ]);
  t.same(good.body.result?.status, { SuccessValue: '' });
  t.equal(await keyNonce(s0), n0 + 2n, 'the good transaction ran; the bad one never did');
});

t.test('the order of validation errors around the signature check is nearcore’s', async (t) => {
  const { root, sign, keyNonce, send } = await started(t);
  const ran = await send(await sign(root, { nonce: (await keyNonce(root)) + 1n }));
  t.same(ran.body.result?.status, { SuccessValue: '' });
  const next = async () => (await keyNonce(root)) + 1n;
  const error = async (o: Parameters<typeof sign>[1]) => (await send(await sign(root, o))).body.error?.data;

  // Checked before the signature: the block hash (validity period), then the actions.
  const stale = new Uint8Array(32).fill(9);
  t.same(await error({ nonce: await next(), blockHash: stale, corrupt: true }), invalid('Expired'));
  const zeroGas = [A.functionCall('m', new Uint8Array(0), 0n, 0n)];
  const zeroGasError = invalid({ ActionsValidation: 'FunctionCallZeroAttachedGas' });
  t.same(await error({ nonce: await next(), actions: zeroGas }), zeroGasError);
  t.same(await error({ nonce: await next(), actions: zeroGas, corrupt: true }), zeroGasError);

  const nonceBefore = await keyNonce(root);
  // Checked after it: each refusal becomes InvalidSignature once the signature is bad.
  const cases: [string, Parameters<typeof sign>[1], RegExp][] = [
    ['unknown signer', { signerId: 'nobody.near', nonce: 1n }, /SignerDoesNotExist/],
    ['used nonce', { nonce: await keyNonce(root) }, /InvalidNonce/],
    ['balance', { nonce: await next(), actions: [A.transfer(10n ** 40n)] }, /NotEnoughBalance/],
  ];
  for (const [name, o, valid] of cases) {
    t.match(JSON.stringify(await error(o)), valid, `${name}, signature valid`);
    t.same(await error({ ...o, corrupt: true }), invalid('InvalidSignature'), `${name}, signature bad`);
  }
  t.equal(await keyNonce(root), nonceBefore, 'nothing refused moved the nonce');
});

t.test("a second transaction of a pending nonce waits as nearcore's pool lets it", async (t) => {
  // Blocks 5 s apart, the transactions sent just after one: the first stays pending meanwhile.
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '5000']);
  t.teardown(() => node.stop());
  const { root, sign, keyNonce } = clients(node, readKeyFile(home).secret_key);
  await waitForHeight(node, 1);
  const nonce = (await keyNonce(root)) + 1n;
  const pending = await sign(root, { nonce });
  const badSignature = await sign(root, { nonce, receiverId: 'other.near', corrupt: true });
  const tooMuch = await sign(root, { nonce, actions: [A.transfer(10n ** 40n)] });
  const second = await sign(root, { nonce, receiverId: 'other.near' });
  const height = async () =>
    (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body.result!.header
      .height;
  const at = await height();
  await waitForHeight(node, at + 1);
  const answers = [];
  // NONE answers before any check, as nearcore's does; INCLUDED answers a refusal at once.
  for (const [b64, waitUntil] of [
    [pending, 'NONE'],
    [badSignature, 'INCLUDED'],
    [tooMuch, 'INCLUDED'],
  ])
    answers.push((await node.rpc('send_tx', { signed_tx_base64: b64, wait_until: waitUntil })).body);
  const secondAnswer = node.rpc('send_tx', { signed_tx_base64: second, wait_until: 'INCLUDED' });
  t.equal(await height(), at + 1, 'no block came in between');
  t.same(answers[0]?.result, { final_execution_status: 'NONE' }, 'the first is pending');
  t.same(answers[1]?.error?.data, invalid('InvalidSignature'), 'a bad signature is named');
  t.match(JSON.stringify(answers[2]?.error?.data), /NotEnoughBalance/, 'so is a balance too low');
  // Admission checks the head's state only: the second is pooled, and refused when its chunk is
  // made, the first having taken the nonce; its client then learns it as nearcore's would, from
  // send_tx's check of a transaction no block holds: the key's nonce is now this one.
  t.same(
    (await secondAnswer).body.error?.data,
    invalid({ InvalidNonce: { tx_nonce: Number(nonce), ak_nonce: Number(nonce) } }),
    'the second of the nonce, once the first took it',
  );
  t.ok((await height()) > at + 1, 'answered after the block that took the first');
});

t.test('the first of a nonce refused by its chunk leaves the nonce to the second', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home, ['--block-time', '2500']);
  t.teardown(() => node.stop());
  const { root, sign, keyNonce, send } = clients(node, readKeyFile(home).secret_key);
  await waitForHeight(node, 1);
  const NEAR = 10n ** 24n;
  const key = KeyPair.fromRandom('ed25519');
  const poor = new KeyPairSigner(key);
  const created = await send(
    await sign(root, {
      receiverId: 'poor.test.near',
      nonce: (await keyNonce(root)) + 1n,
      actions: [A.createAccount(), A.transfer(NEAR), A.addFullAccessKey(key.getPublicKey())],
    }),
  );
  t.same(created.body.result?.status, { SuccessValue: '' });
  const view = async () =>
    (
      await node.rpc<{ nonce: number }>('query', {
        request_type: 'view_access_key',
        account_id: 'poor.test.near',
        public_key: key.getPublicKey().toString(),
        finality: 'optimistic',
      })
    ).body.result!.nonce;
  const n = BigInt(await view());
  const from = (nonce: bigint, amount: bigint) =>
    sign(poor, { signerId: 'poor.test.near', receiverId: 'test.near', nonce, actions: [A.transfer(amount)] });
  const [spend, overspend, small] = await Promise.all([
    from(n + 1n, (NEAR * 9n) / 10n),
    from(n + 2n, (NEAR * 9n) / 10n),
    from(n + 2n, NEAR / 100n),
  ]);
  // All three pass admission against the head's state (1 NEAR); in the chunk the first spends most
  // of it, the second of n + 2 cannot pay, and the third of n + 2 can: nearcore's pool holds both.
  const height = (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body
    .result!.header.height;
  await waitForHeight(node, height + 1);
  for (const b64 of [spend, overspend]) await node.rpc('broadcast_tx_async', [b64]);
  const included = await send(small);
  t.same(included.body.result?.status, { SuccessValue: '' }, 'the second of n + 2 ran');
  t.equal(BigInt(await view()), n + 2n, 'and took the nonce');
});

t.test('a resend is checked as a new transaction is: its signature, then its key', async (t) => {
  const { node, root, sign, keyNonce, send } = await started(t);
  const key = KeyPair.fromRandom('ed25519');
  const added = await send(
    await sign(root, {
      receiverId: 'test.near',
      nonce: (await keyNonce(root)) + 1n,
      actions: [A.addFullAccessKey(key.getPublicKey())],
    }),
  );
  t.same(added.body.result?.status, { SuccessValue: '' });
  const signer = new KeyPairSigner(key);
  const nonce = (await keyNonce(signer)) + 1n;
  const blockHash = Uint8Array.from(
    baseDecode(
      (await node.rpc<{ header: { hash: string } }>('block', { finality: 'final' })).body.result!.header.hash,
    ),
  );
  const good = await sign(signer, { nonce, blockHash });
  const forged = await sign(signer, { nonce, blockHash, corrupt: true });
  t.same((await send(good)).body.result?.status, { SuccessValue: '' }, 'it ran');
  // Its hash, which covers the transaction and not the signature, is known; a copy with another
  // signature is still a bad signature (nearcore's validate_tx runs on every submission).
  for (const [method, params] of [
    ['send_tx', { signed_tx_base64: forged, wait_until: 'EXECUTED_OPTIMISTIC' }],
    ['broadcast_tx_commit', [forged]],
  ] as const)
    t.same(
      (await node.rpc(method, params)).body.error?.data,
      invalid('InvalidSignature'),
      `${method}: forged`,
    );
  // Resent as it was: the nonce it used makes it a resend, answered with its outcome.
  t.same((await send(good)).body.result?.status, { SuccessValue: '' }, 'resent whole');
  // Once its key is deleted, the resend meets the key's check first, as nearcore's does.
  const deleted = await send(
    await sign(root, {
      receiverId: 'test.near',
      nonce: (await keyNonce(root)) + 1n,
      actions: [A.deleteKey(key.getPublicKey())],
    }),
  );
  t.same(deleted.body.result?.status, { SuccessValue: '' });
  t.match(
    (await send(good)).body.error?.data,
    invalid({ InvalidAccessKeyError: { AccessKeyNotFound: { account_id: 'test.near' } } }),
    'a resend of a deleted key',
  );
});
