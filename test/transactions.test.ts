// Transactions from near-api-js 7 as a new user sends them: accounts, transfers, keys, waits, failures.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as T from '@near-js/jsonrpc-types';
import { base58Encode, decodeSignedTransaction } from '@nearlite/primitives';
import {
  actions as A,
  Account,
  createTransaction,
  JsonRpcProvider,
  KeyPair,
  KeyPairSigner,
  type KeyPairString,
} from 'near-api-js';
import t from 'tap';
import { camel, initHome, keyFilePrivateKey, readKeyFile, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

const NEAR = 10n ** 24n;

t.test('near-api-js 7 end to end', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--shards', '2']);
  const key = readKeyFile(home);
  const node = await startNode(home, ['--block-time', '60']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 3);
  const provider = new JsonRpcProvider({ url: node.url });
  const root = new Account('test.near', provider, key.secret_key as KeyPairString);

  // Sub-account creation and a transfer across shards.
  const aliceKey = KeyPair.fromRandom('ed25519');
  const created = await root.createAccount({
    newAccountId: 'alice.test.near',
    publicKey: aliceKey.getPublicKey(),
    nearToTransfer: 10n * NEAR,
  });
  // Refunds are not waited for (nearcore's get_tx_execution_status).
  t.equal(created.final_execution_status, 'EXECUTED_OPTIMISTIC');
  t.ok(T.RpcTransactionResponseSchema().safeParse(camel(created)).success, 'RpcTransactionResponseSchema');
  const alice = new Account('alice.test.near', provider, new KeyPairSigner(aliceKey));
  // The receipt's block records the new account and key with nearcore's causes.
  const createdIn = created.receipts_outcome[0]!.block_hash;
  const changes = async (params: Record<string, unknown>) =>
    (
      await node.rpc<{
        changes: { cause: { type: string }; type: string; change: Record<string, unknown> }[];
      }>('EXPERIMENTAL_changes', { ...params, block_id: createdIn })
    ).body.result!.changes;
  const acc = await changes({ changes_type: 'account_changes', account_ids: ['alice.test.near'] });
  t.same(
    acc.map((c) => [c.cause.type, c.type]),
    [['receipt_processing', 'account_update']],
  );
  t.equal(acc[0]!.change.amount, (10n * NEAR).toString());
  const keys = await changes({ changes_type: 'all_access_key_changes', account_ids: ['alice.test.near'] });
  t.same(
    keys.map((c) => c.type),
    ['access_key_update'],
  );
  const single = await changes({
    changes_type: 'single_access_key_changes',
    keys: [{ account_id: 'alice.test.near', public_key: aliceKey.getPublicKey().toString() }],
  });
  t.equal(single.length, 1);
  const signerSide = await node.rpc<{ changes: { cause: { type: string } }[] }>('EXPERIMENTAL_changes', {
    changes_type: 'account_changes',
    account_ids: ['test.near'],
    block_id: created.transaction_outcome.block_hash,
  });
  t.ok(
    signerSide.body.result!.changes.some((c) => c.cause.type === 'transaction_processing'),
    'the signer paid in transaction_processing',
  );
  const effects = await node.rpc<{ changes: { type: string; account_id: string }[] }>('block_effects', {
    block_id: createdIn,
  });
  t.ok(
    effects.body.result!.changes.some(
      (c) => c.type === 'account_touched' && c.account_id === 'alice.test.near',
    ),
  );
  const aliceState = await provider.viewAccount({ accountId: 'alice.test.near' });
  t.equal(aliceState.amount, 10n * NEAR);
  t.equal(aliceState.storage_usage, 182);
  t.equal(
    await alice.getBalance(),
    10n * NEAR - 182n * 10n ** 19n,
    'near-api-js subtracts the storage stake',
  );

  const sent = await alice.transfer({ receiverId: 'test.near', amount: NEAR });
  t.same(sent.status, { SuccessValue: '' });
  const tx = sent.transaction_outcome.outcome;
  t.equal(tx.gas_burnt, 223_182_562_500, 'a transfer burns nearcore’s send fees');
  // The exec fees were bought at min_gas_purchase_price (above this chain's gas price): the surplus
  // comes back in a gas refund, which EXECUTED_OPTIMISTIC does not wait for; FINAL does.
  await node.rpc('tx', {
    tx_hash: sent.transaction_outcome.id,
    sender_account_id: 'alice.test.near',
    wait_until: 'FINAL',
  });
  const after = (await provider.viewAccount({ accountId: 'alice.test.near' })).amount;
  t.equal(
    after,
    9n * NEAR - 2n * 223_182_562_500n * 100_000_000n,
    'send + exec fees at the minimum gas price, to the yocto',
  );

  // Implicit account created by a transfer.
  const implicit = KeyPair.fromRandom('ed25519');
  const implicitId = Buffer.from(implicit.getPublicKey().data).toString('hex');
  await root.transfer({ receiverId: implicitId, amount: NEAR });
  const ik = await provider.viewAccessKey({
    accountId: implicitId,
    publicKey: implicit.getPublicKey().toString(),
  });
  t.equal(ik.permission, 'FullAccess', 'the implicit account got its own key');
  const implicitAccount = new Account(implicitId, provider, new KeyPairSigner(implicit));
  await implicitAccount.transfer({ receiverId: 'test.near', amount: 1n });

  // Function-call keys and what they may not do.
  const fcKey = KeyPair.fromRandom('ed25519');
  await alice.addFunctionCallAccessKey({
    publicKey: fcKey.getPublicKey(),
    contractId: 'app.test.near',
    methodNames: ['go'],
    allowance: NEAR,
  });
  const fcView = await provider.viewAccessKey({
    accountId: 'alice.test.near',
    publicKey: fcKey.getPublicKey().toString(),
  });
  t.same(fcView.permission, {
    FunctionCall: { allowance: NEAR.toString(), receiver_id: 'app.test.near', method_names: ['go'] },
  });
  const limited = new Account('alice.test.near', provider, new KeyPairSigner(fcKey));
  await t.rejects(
    limited.transfer({ receiverId: 'test.near', amount: 1n }),
    /RequiresFullAccess|full access/i,
  );
  await alice.deleteKey(fcKey.getPublicKey());
  const gone = await provider
    .query({
      request_type: 'view_access_key',
      account_id: 'alice.test.near',
      public_key: fcKey.getPublicKey().toString(),
      finality: 'optimistic',
    })
    .catch((e: Error) => e);
  t.match(String((gone as Error).message ?? JSON.stringify(gone)), /does not exist/);

  // A failing receipt: creating an account someone else owns.
  const fail = await root.signAndSendTransaction({
    receiverId: 'alice.test.near',
    actions: [A.createAccount()],
    throwOnFailure: false,
  });
  t.match(JSON.stringify(fail.status), /AccountAlreadyExists/);

  // Account deletion sends the balance to the beneficiary.
  const before = await root.getBalance();
  await alice.deleteAccount('test.near');
  await t.rejects(provider.viewAccount({ accountId: 'alice.test.near' }), /does not exist/);
  t.ok((await root.getBalance()) > before, 'the beneficiary received the balance');

  // Status methods.
  const h = sent.transaction_outcome.id;
  for (const method of ['tx', 'EXPERIMENTAL_tx_status'] as const) {
    const r = await node.rpc<{ final_execution_status: string; receipts?: unknown[] }>(method, {
      tx_hash: h,
      sender_account_id: 'alice.test.near',
      wait_until: 'FINAL',
    });
    t.equal(r.body.result?.final_execution_status, 'FINAL', `${method} reaches FINAL`);
    // RpcTransactionResponse: the flattened outcome view, then its own final_execution_status.
    t.same(
      Object.keys(r.body.result ?? {}),
      [
        'status',
        'transaction',
        'transaction_outcome',
        'receipts_outcome',
        ...(method === 'tx' ? [] : ['receipts']),
        'final_execution_status',
      ],
      `${method}: fields in nearcore's order`,
    );
    t.ok(T.RpcTransactionResponseSchema().safeParse(camel(r.body.result)).success, `${method} schema`);
    // The transfer and the refund of the gas bought above the chunk's price.
    if (method === 'EXPERIMENTAL_tx_status') t.equal(r.body.result?.receipts?.length, 2);
    // A FINAL result is kept serialized; asked again, at any level, it is the same answer.
    const again = await node.rpc(method, {
      tx_hash: h,
      sender_account_id: 'alice.test.near',
      wait_until: 'NONE',
    });
    t.same(again.body.result, r.body.result, `${method} answers a FINAL transaction the same way again`);
  }
  const receiptId = sent.transaction_outcome.outcome.receipt_ids[0]!;
  const receipt = await node.rpc<{ receipt_id: string }>('EXPERIMENTAL_receipt', { receipt_id: receiptId });
  t.equal(receipt.body.result?.receipt_id, receiptId);
  t.ok(T.RpcReceiptResponseSchema().safeParse(camel(receipt.body.result)).success);
  const unknown = await node.rpc('tx', {
    tx_hash: '11111111111111111111111111111111',
    sender_account_id: 'test.near',
    wait_until: 'NONE',
  });
  t.equal(unknown.body.error?.cause.name, 'UNKNOWN_TRANSACTION');
  const unknownReceipt = await node.rpc('EXPERIMENTAL_receipt', {
    receipt_id: '11111111111111111111111111111111',
  });
  t.equal(unknownReceipt.body.error?.cause.name, 'UNKNOWN_RECEIPT');
});

t.test('every wait level, broadcast forms and bad transactions', async (t) => {
  const home = tempDir(t);
  initHome(home);
  // A shorter polling timeout, for the wait below that ends in one.
  const cfgPath = join(home, 'config.json');
  const cfg = JSON.parse(readFileSync(cfgPath, 'utf8'));
  cfg.rpc.polling_config.polling_timeout = { secs: 4, nanos: 0 };
  writeFileSync(cfgPath, JSON.stringify(cfg));
  const key = readKeyFile(home);
  const node = await startNode(home, ['--block-time', '60']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 3);
  const provider = new JsonRpcProvider({ url: node.url });
  const signer = KeyPairSigner.fromSecretKey(key.secret_key as KeyPairString);
  const pk = await signer.getPublicKey();
  let nonce = (await provider.viewAccessKey({ accountId: 'test.near', publicKey: pk.toString() })).nonce;
  const finalHash = async () =>
    Buffer.from(
      (await import('near-api-js')).baseDecode((await provider.viewBlock({ finality: 'final' })).header.hash),
    );
  const sign = async (actions = [A.transfer(1n)], n = ++nonce, hash?: Uint8Array) => {
    const tx = createTransaction('test.near', pk, 'near', n, actions, hash ?? (await finalHash()));
    const { signedTransaction } = await signer.signTransaction(tx);
    return Buffer.from(signedTransaction.encode()).toString('base64');
  };
  for (const w of ['NONE', 'INCLUDED', 'EXECUTED_OPTIMISTIC', 'INCLUDED_FINAL', 'EXECUTED', 'FINAL']) {
    const r = await node.rpc<{ final_execution_status: string }>('send_tx', {
      signed_tx_base64: await sign(),
      wait_until: w,
    });
    t.notOk(r.body.error, `${w} has no error`);
    const got = r.body.result!.final_execution_status;
    const order = ['NONE', 'INCLUDED', 'EXECUTED_OPTIMISTIC', 'INCLUDED_FINAL', 'EXECUTED', 'FINAL'];
    t.ok(order.indexOf(got) >= order.indexOf(w), `send_tx ${w} → ${got}`);
  }
  const async = await node.rpc<string>('broadcast_tx_async', [await sign()]);
  t.match(async.body.result, /^[1-9A-HJ-NP-Za-km-z]{43,44}$/);
  const commit = await node.rpc<{ status: unknown }>('broadcast_tx_commit', [await sign()]);
  t.same(commit.body.result?.status, { SuccessValue: '' });

  const reused = await node.rpc('send_tx', { signed_tx_base64: await sign(undefined, 1n) });
  t.equal(reused.body.error?.cause.name, 'INVALID_TRANSACTION');
  t.match(JSON.stringify(reused.body.error?.data), /InvalidNonce/);
  const stale = await node.rpc('send_tx', {
    signed_tx_base64: await sign(undefined, ++nonce, new Uint8Array(32).fill(9)),
  });
  t.same(stale.body.error?.data, { TxExecutionError: { InvalidTxError: 'Expired' } });
  const rich = await node.rpc('send_tx', { signed_tx_base64: await sign([A.transfer(10n ** 40n)]) });
  t.match(JSON.stringify(rich.body.error?.data), /NotEnoughBalance/);
  // A deposit of u128::MAX: nearcore prices it with checked arithmetic and answers CostOverflow.
  const overflow = await node.rpc('send_tx', {
    signed_tx_base64: await sign([A.transfer((1n << 128n) - 1n)]),
  });
  t.equal(overflow.body.error?.cause.name, 'INVALID_TRANSACTION');
  t.same(overflow.body.error?.data, { TxExecutionError: { InvalidTxError: 'CostOverflow' } });
  const badSig = Buffer.from(await sign(), 'base64');
  badSig[badSig.length - 5] ^= 0xff;
  const sig = await node.rpc('send_tx', { signed_tx_base64: badSig.toString('base64') });
  t.same(sig.body.error?.data, { TxExecutionError: { InvalidTxError: 'InvalidSignature' } });
  const garbage = await node.rpc('send_tx', {
    signed_tx_base64: Buffer.from('hello world').toString('base64'),
  });
  t.equal(garbage.status, 400);
  t.equal(garbage.body.error?.cause.name, 'PARSE_ERROR');

  // A nonce above nearcore's upper bound (height × 10^6): admission does not know the block it will
  // land in and skips that check, as nearcore's validate_tx does; the chunk's check then drops it,
  // so it never runs and the key's nonce is untouched. nearcore's tx_status_fetch never learns why:
  // it checks the transaction again as admission would at every poll, finds it valid, and answers
  // TIMEOUT_ERROR (HTTP 408) when its polling timeout ends.
  const keyNonce = async () =>
    (await provider.viewAccessKey({ accountId: 'test.near', publicKey: pk.toString() })).nonce;
  const nonceBefore = await keyNonce();
  const far = await sign(undefined, 10n ** 15n);
  const admitted = await node.rpc<{ final_execution_status: string }>('send_tx', {
    signed_tx_base64: far,
    wait_until: 'NONE',
  });
  t.same(admitted.body.result, { final_execution_status: 'NONE' }, 'admitted at NONE, as nearcore does');
  const waited = await node.rpc('send_tx', { signed_tx_base64: far, wait_until: 'INCLUDED' });
  t.equal(waited.status, 408, 'dropped by its chunk, it waits to the polling timeout');
  t.equal(waited.body.error?.cause.name, 'TIMEOUT_ERROR');
  const byHash = await node.rpc('tx', {
    tx_hash: base58Encode(decodeSignedTransaction(Buffer.from(far, 'base64')).hash),
    sender_account_id: 'test.near',
    wait_until: 'NONE',
  });
  t.equal(byHash.body.error?.cause.name, 'UNKNOWN_TRANSACTION', 'and no chain holds it');
  const head = (await provider.viewBlock({ finality: 'optimistic' })).header.height;
  await waitForHeight(node, head + 4);
  t.equal(await keyNonce(), nonceBefore, 'it never ran');
  // A transaction its chunk drops for what admission sees too is answered, with admission's error,
  // once the head shows it: two transfers that each fit the balance and together do not, sent at
  // once so that one chunk usually takes both (otherwise admission refuses the second itself).
  const view = await node.rpc<{ amount: string }>('query', {
    request_type: 'view_account',
    account_id: 'test.near',
    finality: 'optimistic',
  });
  const most = (BigInt(view.body.result!.amount) * 6n) / 10n;
  const pair = [await sign([A.transfer(most)]), await sign([A.transfer(most)])];
  const sent = await Promise.all(
    pair.map((b64) => node.rpc('send_tx', { signed_tx_base64: b64, wait_until: 'INCLUDED' })),
  );
  t.same(
    sent.map((r) => r.status),
    [200, 200],
  );
  const refused = sent.filter((r) => r.body.error);
  t.equal(refused.length, 1, 'one of the two is refused');
  t.match(JSON.stringify(refused[0]?.body.error?.data), /NotEnoughBalance/);
  const status = await node.rpc('status', []);
  t.equal(status.status, 200, 'still serving');
});

t.test('a TransactionV1 with a strict nonce runs; a gap is refused at admission', async (t) => {
  const { sign } = await import('node:crypto');
  const P = await import('@nearlite/primitives');
  const home = tempDir(t);
  initHome(home);
  const key = readKeyFile(home);
  const node = await startNode(home, ['--block-time', '60']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 3);
  const privateKey = keyFilePrivateKey(key);
  const ak = await node.rpc<{ nonce: number }>('query', {
    request_type: 'view_access_key',
    account_id: 'test.near',
    public_key: key.public_key,
    finality: 'final',
  });
  const head = await node.rpc<{ header: { hash: string } }>('block', { finality: 'final' });
  const v1 = (nonce: bigint) => {
    const tx = {
      version: 1 as const,
      nonceMode: 'Strict' as const,
      signerId: 'test.near',
      publicKey: P.parsePublicKey(key.public_key),
      nonce,
      receiverId: 'near',
      blockHash: P.base58Decode(head.body.result!.header.hash),
      actions: [{ type: 'Transfer' as const, deposit: 1n }],
    };
    const hash = P.transactionHash(tx);
    const signature = { keyType: 0 as const, data: new Uint8Array(sign(null, hash, privateKey)) };
    return { base64: P.toBase64(P.encodeSignedTransaction(tx, signature)), hash: P.base58Encode(hash) };
  };
  const next = BigInt(ak.body.result!.nonce) + 1n;
  // At NONE nearcore answers before admission (chain/jsonrpc/src/lib.rs send_tx): nothing is reported.
  const unchecked = await node.rpc('send_tx', { signed_tx_base64: v1(next + 1n).base64, wait_until: 'NONE' });
  t.same(unchecked.body, { jsonrpc: '2.0', id: 'dontcare', result: { final_execution_status: 'NONE' } });
  const gap = await node.rpc('send_tx', { signed_tx_base64: v1(next + 1n).base64, wait_until: 'INCLUDED' });
  t.same(
    gap.body.error?.data,
    {
      TxExecutionError: {
        InvalidTxError: { InvalidNonce: { tx_nonce: Number(next + 1n), ak_nonce: Number(next - 1n) } },
      },
    },
    'a strict nonce two ahead of the key is refused',
  );
  const ok = v1(next);
  const sent = await node.rpc<{ transaction: Record<string, unknown>; status: unknown }>('send_tx', {
    signed_tx_base64: ok.base64,
    wait_until: 'EXECUTED_OPTIMISTIC',
  });
  t.notOk(sent.body.error, 'the next nonce runs');
  t.equal(sent.body.result?.transaction.hash, ok.hash, "the hash covers V1's version byte");
  t.equal(sent.body.result?.transaction.nonce_mode, 'strict');
  t.same(sent.body.result?.status, { SuccessValue: '' });
});
