// EXPERIMENTAL_receipt_to_tx on a real node: every receipt of a transaction's tree, its refunds and a
// meta transaction's inner receipt included, leads back to the transaction and its signer; nearcore's
// errors for an unknown receipt and for hints that do not make sense.
import { actions as A, Account, KeyPair, KeyPairSigner } from 'near-api-js';
import t from 'tap';
import { localChain } from './helpers/chain.js';

const NEAR = 10n ** 24n;

t.test('every receipt leads back to its transaction', async (t) => {
  const c = await localChain(t);
  const { node, provider, root } = c;
  const userKey = KeyPair.fromRandom('ed25519');
  await root.createAccount({
    newAccountId: 'user.test.near',
    publicKey: userKey.getPublicKey(),
    nearToTransfer: 5n * NEAR,
  });
  const user = new Account('user.test.near', provider, new KeyPairSigner(userKey));

  const lookup = (params: Record<string, unknown>) =>
    node.rpc<{ transaction_hash: string; sender_account_id: string }>('EXPERIMENTAL_receipt_to_tx', params);
  const settled = (hash: string, sender: string) =>
    node.rpc<{ receipts_outcome: { id: string }[] }>('tx', {
      tx_hash: hash,
      sender_account_id: sender,
      wait_until: 'FINAL',
    });

  // A transfer: its receipt and the refund that follows it.
  const sent = await user.transfer({ receiverId: 'test.near', amount: 1n });
  const transfer = (await settled(sent.transaction_outcome.id, 'user.test.near')).body.result!;
  t.ok(transfer.receipts_outcome.length >= 1);
  for (const r of transfer.receipts_outcome) {
    const { body } = await lookup({ receipt_id: r.id });
    t.same(
      body.result,
      { transaction_hash: sent.transaction_outcome.id, sender_account_id: 'user.test.near' },
      r.id,
    );
  }

  // A meta transaction: the relayer's receipt, the inner one it sends, and their refunds.
  const { signedDelegate } = await user.createSignedMetaTransaction({
    receiverId: 'test.near',
    actions: [A.transfer(1n)],
  });
  const relayed = await root.relayMetaTransaction(signedDelegate);
  const tree = (await settled(relayed.transaction_outcome.id, 'test.near')).body.result!;
  t.ok(tree.receipts_outcome.length >= 2, 'the delegate receipt and the inner one at least');
  for (const r of tree.receipts_outcome) {
    const { body } = await lookup({ receipt_id: r.id });
    t.same(
      body.result,
      { transaction_hash: relayed.transaction_outcome.id, sender_account_id: 'test.near' },
      r.id,
    );
  }
  // The path form answers the same.
  const res = await fetch(`${node.url}/EXPERIMENTAL_receipt_to_tx`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ receipt_id: tree.receipts_outcome[1]!.id }),
  });
  t.same(((await res.json()) as { result: unknown }).result, {
    transaction_hash: relayed.transaction_outcome.id,
    sender_account_id: 'test.near',
  });

  // A hint is accepted alongside a known receipt.
  const hinted = await lookup({
    receipt_id: tree.receipts_outcome[0]!.id,
    block_height: (await provider.viewBlock({ finality: 'final' })).header.height,
    window: 20,
  });
  t.equal(hinted.body.result?.transaction_hash, relayed.transaction_outcome.id);

  // nearcore's errors.
  const unknown = '11111111111111111111111111111111';
  const missing = await lookup({ receipt_id: unknown });
  t.same(missing.body.error?.cause, { name: 'UNKNOWN_RECEIPT', info: { receipt_id: unknown } });
  t.equal(missing.body.error?.name, 'HANDLER_ERROR');
  t.same((await lookup({ receipt_id: unknown, window: 3 })).body.error?.cause, {
    name: 'MALFORMED_HINT',
    info: { error_message: 'window requires block_height' },
  });
  t.same((await lookup({ receipt_id: unknown, shard_id: 0 })).body.error?.cause, {
    name: 'MALFORMED_HINT',
    info: { error_message: 'shard_id requires block_height' },
  });
  t.same((await lookup({ receipt_id: unknown, block_height: 5, window: 21 })).body.error?.cause, {
    name: 'WINDOW_TOO_LARGE',
    info: { requested: 21, maximum: 20 },
  });
  t.equal((await lookup({})).body.error?.cause?.name, 'PARSE_ERROR');
  t.equal((await lookup({ receipt_id: 'not a hash' })).body.error?.cause?.name, 'PARSE_ERROR');
});
