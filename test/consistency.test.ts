// Money is conserved: after a random parallel workload, the sum of every balance and stake equals
// the total supply in the head block header (the genesis supply minus everything burnt).
import { ChainReader } from '@nearlite/chain';
import {
  actions as A,
  Account,
  JsonRpcProvider,
  KeyPair,
  KeyPairSigner,
  type KeyPairString,
} from 'near-api-js';
import t from 'tap';
import { initHome, readKeyFile, startNode, waitForHeight } from './helpers/node.js';
import { supplyAtHead } from './helpers/supply.js';
import { tempDir } from './helpers/tmp.js';

const NEAR = 10n ** 24n;

function rng(seed: number) {
  let x = seed;
  return (n: number) => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x % n;
  };
}

t.test('balances add up after many accounts send in parallel', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--shards', '3']);
  const key = readKeyFile(home);
  const node = await startNode(home, ['--block-time', '40']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 3);
  const provider = new JsonRpcProvider({ url: node.url });
  const root = new Account('test.near', provider, key.secret_key as KeyPairString);
  const rand = rng(42);
  const names = ['alpha', 'kilo', 'mike', 'sierra', 'zulu', 'bravo', 'oscar', 'yankee'];
  const accounts: Account[] = [];
  for (const n of names) {
    const kp = KeyPair.fromRandom('ed25519');
    await root.createAccount({
      newAccountId: `${n}.test.near`,
      publicKey: kp.getPublicKey(),
      nearToTransfer: 20n * NEAR,
    });
    accounts.push(new Account(`${n}.test.near`, provider, new KeyPairSigner(kp)));
  }
  // Each account runs its own sequence; the accounts run in parallel.
  await Promise.all(
    accounts.map(async (acc) => {
      for (let step = 0; step < 6; step++) {
        const to = accounts[rand(accounts.length)]!.accountId;
        const kind = rand(5);
        if (kind === 0) {
          // A receipt that fails: its deposit comes back as a refund.
          await acc.signAndSendTransaction({
            receiverId: to,
            actions: [A.createAccount(), A.transfer(NEAR)],
            throwOnFailure: false,
          });
        } else if (kind === 1) {
          const kp = KeyPair.fromRandom('ed25519');
          await acc.transfer({
            receiverId: Buffer.from(kp.getPublicKey().data).toString('hex'),
            amount: NEAR / 3n,
          });
        } else if (kind === 2) {
          const kp = KeyPair.fromRandom('ed25519');
          await acc.createAccount({
            newAccountId: `s${step}.${acc.accountId}`,
            publicKey: kp.getPublicKey(),
            nearToTransfer: NEAR,
          });
        } else {
          await acc.transfer({ receiverId: to, amount: BigInt(1 + rand(1000)) * 10n ** 20n });
        }
      }
    }),
  );
  // Deletions wait for the workload: a transfer to an account deleted mid-run would rightly fail.
  await Promise.all(accounts.filter((_, i) => i % 4 === 0).map((acc) => acc.deleteAccount('test.near')));
  // Let every receipt and refund land and the burnt balance reach a header.
  const head = (await provider.viewBlock({ finality: 'optimistic' })).header.height;
  await waitForHeight(node, head + 6);
  await node.stop();

  const reader = await ChainReader.open(home);
  t.teardown(() => reader.close());
  const { held, expected, accounts: count } = supplyAtHead(reader);
  t.ok(count > names.length, `${count} accounts`);
  t.equal(held, expected, 'Σ balances + stake = total supply − burnt');
});
