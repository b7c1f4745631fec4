// A `serve` front end may face the internet as a public archival endpoint: the hostile-request load
// (helpers/hostile_load.ts) against one over a PostgreSQL history, which must stay up, answer every
// request well formed, and go on serving what its writer writes.
import { join } from 'node:path';
import { actions as A, baseDecode, createTransaction, KeyPair, KeyPairSigner } from 'near-api-js';
import t from 'tap';
import { type CliProcess, startCli } from './helpers/cli_process.js';
import { hostileLoad } from './helpers/hostile_load.js';
import { waitForHeight } from './helpers/node.js';
import { followLakeArgs, pgHome, storeArgs } from './helpers/pg_home.js';
import { lakePublisher, syntheticChain } from './helpers/synthetic_chain.js';

t.test('hostile requests to a serve front end: well formed, nothing leaked, still serving', async (t) => {
  const { metaUrl, shardUrl, dir, home } = await pgHome(t);
  const chain = syntheticChain(80, { from: 10_000_000 });
  const publish = lakePublisher(join(dir, 'blocks'), join(dir, 'staging'));
  publish(chain.slice(0, 40));
  const store = storeArgs({ metaUrl, shardUrl });
  const procs: CliProcess[] = [];
  t.teardown(async () => {
    for (const p of procs) await p.stop();
  });
  const writer = await startCli([...followLakeArgs(home, join(dir, 'blocks')), ...store]);
  procs.push(writer);
  const front = await startCli(['serve', '--home', home, '--rpc-addr', '127.0.0.1:0', ...store]);
  procs.push(front);
  await waitForHeight(front, chain[39]!.block.header.height, 60_000);

  const signer = new KeyPairSigner(KeyPair.fromRandom('ed25519'));
  const tx = createTransaction(
    'near',
    await signer.getPublicKey(),
    'near',
    1n,
    [A.transfer(1n)],
    baseDecode(chain[39]!.block.header.hash),
  );
  const goodTx = Buffer.from((await signer.signTransaction(tx)).signedTransaction.encode());
  // Without an upstream a front end refuses writes, proofs and validator views, saying to start it with one.
  await hostileLoad(t, front, goodTx, { documented: /--upstream-rpc/, requests: 4_000 });

  publish(chain.slice(40));
  await waitForHeight(front, chain.at(-1)!.block.header.height, 60_000);
  t.pass('and still serving the blocks its writer goes on writing');
});
