// `tx` of a signed transaction no block holds yet: nearcore checks it against the head's state and
// answers INVALID_TRANSACTION at once when it would be refused. A follower answers as its producer.
import { join } from 'node:path';
import {
  actions as A,
  baseDecode,
  createTransaction,
  KeyPair,
  KeyPairSigner,
  type KeyPairString,
} from 'near-api-js';
import t from 'tap';
import { initHome, rawRpc, readKeyFile, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

t.test('a follower checks a signed transaction it has not followed as its producer does', async (t) => {
  const dir = tempDir(t);
  const home = join(dir, 'producer');
  initHome(home);
  const producer = await startNode(home, ['--block-time', '100']);
  t.teardown(() => producer.stop());
  const followerHome = join(dir, 'follower');
  initHome(followerHome, ['--genesis', join(home, 'genesis.json')]);
  const follower = await startNode(followerHome, ['--follow', producer.url]);
  t.teardown(() => follower.stop());

  const signer = KeyPairSigner.fromSecretKey(readKeyFile(home).secret_key as KeyPairString);
  const pk = await signer.getPublicKey();
  const view = async <R>(method: string, params: unknown): Promise<R> => {
    const r = await rawRpc(producer.url, method, params);
    return (JSON.parse(r.body) as { result: R }).result;
  };
  const finalHash = async () =>
    baseDecode((await view<{ header: { hash: string } }>('block', { finality: 'final' })).header.hash);
  const keyNonce = async () =>
    BigInt(
      (
        await view<{ nonce: number }>('query', {
          request_type: 'view_access_key',
          finality: 'final',
          account_id: 'test.near',
          public_key: pk.toString(),
        })
      ).nonce,
    );
  let base: Uint8Array | undefined;
  const sign = async (
    o: { nonce?: bigint; actions?: ReturnType<typeof A.transfer>[]; hash?: Uint8Array; from?: string } = {},
    by = signer,
  ) => {
    const key = await by.getPublicKey();
    const tx = createTransaction(
      o.from ?? 'test.near',
      key,
      'near',
      o.nonce ?? (await keyNonce()) + 1n,
      o.actions ?? [A.transfer(1n)],
      o.hash ?? base ?? (await finalHash()),
    );
    return Buffer.from((await by.signTransaction(tx)).signedTransaction.encode()).toString('base64');
  };

  // A transfer that runs moves the key's nonce on; the follower holds the state after it, and the
  // block the transactions below name (one it does not hold yet would make them Expired there, as on
  // a node behind its network).
  const sent = await rawRpc(producer.url, 'send_tx', { signed_tx_base64: await sign(), wait_until: 'FINAL' });
  t.match(sent.body, /"final_execution_status":"FINAL"/, sent.body);
  const final = await view<{ header: { height: number; hash: string } }>('block', { finality: 'final' });
  await waitForHeight(follower, final.header.height + 2, 30_000);
  base = baseDecode(final.header.hash);

  const badSignature = Buffer.from(await sign(), 'base64');
  badSignature[badSignature.length - 5]! ^= 0xff;
  const cases: [string, string, RegExp][] = [
    ['a used nonce', await sign({ nonce: 1n }), /"InvalidNonce":\{"tx_nonce":1,"ak_nonce":\d+\}/],
    ['an unknown block hash', await sign({ hash: new Uint8Array(32).fill(9) }), /"InvalidTxError":"Expired"/],
    ['more than the balance', await sign({ actions: [A.transfer(10n ** 40n)] }), /"NotEnoughBalance"/],
    ['a bad signature', badSignature.toString('base64'), /"InvalidTxError":"InvalidSignature"/],
    ['an unknown signer', await sign({ from: 'nobody.test.near', nonce: 1n }), /"SignerDoesNotExist"/],
    [
      'a key the signer does not have',
      await sign({ nonce: 1n }, new KeyPairSigner(KeyPair.fromRandom('ed25519'))),
      /"AccessKeyNotFound"/,
    ],
  ];
  for (const [what, signed, data] of cases) {
    for (const waitUntil of ['NONE', 'EXECUTED_OPTIMISTIC']) {
      const params = { signed_tx_base64: signed, sender_account_id: 'test.near', wait_until: waitUntil };
      const [p, f] = await Promise.all([
        rawRpc(producer.url, 'tx', params),
        rawRpc(follower.url, 'tx', params),
      ]);
      t.match(
        p.body,
        /"cause":\{"name":"INVALID_TRANSACTION"/,
        `${what} at ${waitUntil}: the producer refuses it`,
      );
      t.match(p.body, data, `${what} at ${waitUntil}: ${p.body}`);
      if (what === 'an unknown block hash' && waitUntil === 'NONE') {
        // A block the follower does not hold may be one it has not followed yet: asked for the
        // transaction as it stands now, it does not know it.
        t.match(f.body, /"cause":\{"name":"UNKNOWN_TRANSACTION"/, `${what} at NONE: ${f.body}`);
        continue;
      }
      t.same(f, p, `${what} at ${waitUntil}: the follower answers as the producer`);
    }
  }

  // A transaction signed against the producer's newest final block, which the follower may not hold
  // yet, sent to the producer and asked of the follower at once: its outcome, not Expired.
  for (let i = 0; i < 5; i++) {
    const signed = await sign({ hash: await finalHash(), nonce: (await keyNonce()) + 1n });
    const params = { signed_tx_base64: signed, sender_account_id: 'test.near', wait_until: 'FINAL' };
    await rawRpc(producer.url, 'broadcast_tx_async', [signed]);
    const f = await rawRpc(follower.url, 'tx', params);
    t.match(f.body, /"final_execution_status":"FINAL"/, `sent elsewhere and asked at once (${i}): ${f.body}`);
  }

  // A valid transaction never sent is unknown to both at NONE.
  const unsent = await sign();
  const params = { signed_tx_base64: unsent, sender_account_id: 'test.near', wait_until: 'NONE' };
  const [p, f] = await Promise.all([rawRpc(producer.url, 'tx', params), rawRpc(follower.url, 'tx', params)]);
  t.match(p.body, /"cause":\{"name":"UNKNOWN_TRANSACTION"/, p.body);
  t.same(f, p, 'a valid unsent transaction: UNKNOWN_TRANSACTION from both');
});
