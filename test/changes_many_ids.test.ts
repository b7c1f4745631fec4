// `changes` naming many accounts (one pass over the block's changes) answers what naming them one at
// a time does (a lookup each), prefix by prefix in the request's order; a repeated account is
// answered once; and a follower answers the same.
import { actions as A, KeyPair } from 'near-api-js';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { rawRpc, startFollower, waitForHeight } from './helpers/node.js';
import { signFromValidator } from './helpers/signed_tx.js';

const ACCOUNTS = 24;

t.test('many account ids: the same changes as one at a time, each account once', async (t) => {
  const chain = await localChain(t, { blockTimeMs: 400 });
  const { node, key } = chain;
  const ak = await node.rpc<{ nonce: number }>('query', {
    request_type: 'view_access_key',
    account_id: 'test.near',
    public_key: key.public_key,
    finality: 'optimistic',
  });
  const ids = Array.from({ length: ACCOUNTS }, (_, i) => `acc${String(i).padStart(2, '0')}.test.near`);
  const hashes: string[] = [];
  for (const [i, id] of ids.entries()) {
    const newKey = KeyPair.fromRandom('ed25519').getPublicKey();
    const actions = [A.createAccount(), A.transfer(10n ** 22n), A.addFullAccessKey(newKey)];
    const nonce = BigInt(ak.body.result!.nonce) + 1n + BigInt(i);
    const { base64 } = await signFromValidator(node, key, id, actions, nonce);
    hashes.push(JSON.parse((await rawRpc(node.url, 'broadcast_tx_async', [base64])).body).result);
  }
  // The blocks that ran the accounts' creations: each account's key is added there.
  const blocks = new Set<string>();
  for (const hash of hashes) {
    const r = JSON.parse(
      (await rawRpc(node.url, 'tx', { tx_hash: hash, sender_account_id: 'test.near', wait_until: 'FINAL' }))
        .body,
    );
    blocks.add(r.result.receipts_outcome[0].block_hash);
  }
  // Not in key order: the answer follows the request's.
  const order = [...ids].reverse();
  const asked = [...order, ids[3]!, 'nobody.test.near', ids[0]!];
  const changes = async (url: string, block: string, accountIds: string[]) =>
    JSON.parse(
      (
        await rawRpc(url, 'changes', {
          changes_type: 'all_access_key_changes',
          account_ids: accountIds,
          block_id: block,
        })
      ).body,
    ).result.changes as { change: { account_id: string } }[];

  const follower = await startFollower(chain.home, node.url);
  t.teardown(() => follower.stop());
  const top = (await node.rpc<{ header: { height: number } }>('block', { finality: 'final' })).body.result!
    .header.height;
  await waitForHeight(follower, top, 60_000);

  let seen = 0;
  for (const block of blocks) {
    const together = await changes(node.url, block, asked);
    const oneByOne: unknown[] = [];
    for (const id of [...order, 'nobody.test.near']) oneByOne.push(...(await changes(node.url, block, [id])));
    t.same(together, oneByOne, `block ${block}: as asked one at a time, each account once`);
    t.same(await changes(follower.url, block, asked), together, 'the follower answers the same');
    seen += together.length;
  }
  t.ok(seen >= ACCOUNTS, `every new account's key is among them (${seen} changes)`);
});
