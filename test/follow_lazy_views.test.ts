// A follower's call_function reads the contract's state from history key by key, as the contract
// asks, while the follower keeps ingesting: at its newest block and at an older one, every answer is
// the producer's answer at that block, byte for byte.
import { Account, KeyPair, KeyPairSigner } from 'near-api-js';
import t from 'tap';
import { compileContract } from './helpers/asc.js';
import { localChain } from './helpers/chain.js';
import { startFollower, waitForHeight } from './helpers/node.js';

const NEAR = 10n ** 24n;

async function raw(url: string, params: unknown): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'x', method: 'query', params }),
  });
  return res.text();
}

t.test('call_function on a follower at its head and at an older block while it ingests', async (t) => {
  const chain = await localChain(t, { blockTimeMs: 60 });
  const { root, provider, node: producer } = chain;
  const key = KeyPair.fromRandom('ed25519');
  await root.createAccount({
    newAccountId: 'c.test.near',
    publicKey: key.getPublicKey(),
    nearToTransfer: 10n * NEAR,
  });
  const counter = new Account('c.test.near', provider, new KeyPairSigner(key));
  await counter.deployContract(await compileContract('counter'));
  const increment = () =>
    counter.callFunctionRaw({ contractId: 'c.test.near', methodName: 'increment', args: {} });
  const first = await increment();
  const old =
    (
      await producer.rpc<{ header: { height: number } }>('block', {
        block_id: first.receipts_outcome[0]!.block_hash,
      })
    ).body.result!.header.height + 2;

  const follower = await startFollower(chain.home, producer.url);
  t.teardown(() => follower.stop());
  await waitForHeight(follower, old + 1, 60_000);

  const call = {
    request_type: 'call_function',
    account_id: 'c.test.near',
    method_name: 'get',
    args_base64: '',
  };
  const heightOf = async (blockHash: string) =>
    (await producer.rpc<{ header: { height: number } }>('block', { block_id: blockHash })).body.result!.header
      .height;
  const values = new Set<string>();
  // The producer keeps making blocks and the follower keeps ingesting them while it answers.
  for (let i = 0; i < 3; i++) {
    const tx = await increment();
    await waitForHeight(follower, (await heightOf(tx.receipts_outcome[0]!.block_hash)) + 1, 60_000);
    // The follower's newest block: its answer must be the producer's answer at that height.
    const atHead = await raw(follower.url, { ...call, finality: 'optimistic' });
    const parsed = JSON.parse(atHead) as { result?: { block_height: number; result: number[] } };
    t.ok(parsed.result, `answered at the follower's head: ${atHead.slice(0, 200)}`);
    if (!parsed.result) break;
    const h = parsed.result.block_height;
    t.equal(atHead, await raw(producer.url, { ...call, block_id: h }), `at the head, #${h}`);
    values.add(Buffer.from(parsed.result.result).toString());
    t.equal(
      await raw(follower.url, { ...call, block_id: old }),
      await raw(producer.url, { ...call, block_id: old }),
      `at the older block #${old}`,
    );
  }
  t.same([...values], ['2', '3', '4'], 'each view at the head saw the latest increment');
});
