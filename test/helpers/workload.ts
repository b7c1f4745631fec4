// A random workload on a local chain: transfers, cross-shard NEP-21 token transfers, meta transactions
// relayed by another account, key additions and deletions, contract deploys, and account deletions once
// the rest has run. Returns what a reader should look at afterwards.
import { actions as A, Account, KeyPair, KeyPairSigner } from 'near-api-js';
import type { LocalChain } from './chain.js';
import { contract } from './contracts.js';

const NEAR = 10n ** 24n;
const TGAS = 10n ** 12n;

/** A seeded generator: the same seed gives the same workload. */
export function rng(seed: number): (n: number) => number {
  let x = seed;
  return (n: number) => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x % n;
  };
}

export interface Workload {
  readonly token: string;
  /** Every account the workload touched, deleted ones included. */
  readonly accounts: string[];
  readonly deleted: string[];
  /** Accounts with a contract deployed (the token included). */
  readonly contracts: string[];
  /** Public keys added along the way, per account (some deleted again). */
  readonly keys: [account: string, publicKey: string][];
}

export async function randomWorkload(c: LocalChain, seed: number, steps: number): Promise<Workload> {
  const rand = rng(seed);
  const token = 'ft.test.near';
  // Names spread over the whole alphabet so that they land on different shards.
  const names = ['alpha', 'golf', 'mike', 'tango', 'zulu'].map((n) => `${n}.test.near`);
  const keys: [string, string][] = [];
  const actors: Account[] = [];
  for (const id of names) {
    const kp = KeyPair.fromRandom('ed25519');
    await c.root.createAccount({
      newAccountId: id,
      publicKey: kp.getPublicKey(),
      nearToTransfer: 30n * NEAR,
    });
    actors.push(new Account(id, c.provider, new KeyPairSigner(kp)));
    keys.push([id, kp.getPublicKey().toString()]);
  }
  const ftKey = KeyPair.fromRandom('ed25519');
  await c.root.createAccount({
    newAccountId: token,
    publicKey: ftKey.getPublicKey(),
    nearToTransfer: 50n * NEAR,
  });
  const ft = new Account(token, c.provider, new KeyPairSigner(ftKey));
  await ft.deployContract(contract('fungible_token.wasm'));
  await c.root.callFunction({
    contractId: token,
    methodName: 'new',
    args: { owner_id: 'test.near', total_supply: '1000000' },
    gas: 100n * TGAS,
  });
  const ftTransfer = (from: Account, to: string, amount: number) =>
    from.callFunctionRaw({
      contractId: token,
      methodName: 'transfer',
      args: { new_owner_id: to, amount: String(amount) },
      gas: 100n * TGAS,
      deposit: NEAR / 10n,
    });
  for (const a of actors) await ftTransfer(c.root, a.accountId, 10_000);

  const contracts = [token];
  const pick = () => actors[rand(actors.length)]!;
  for (let step = 0; step < steps; step++) {
    const from = pick();
    const to = pick().accountId;
    switch (rand(6)) {
      case 0:
        await from.transfer({ receiverId: to, amount: BigInt(1 + rand(1000)) * 10n ** 20n });
        break;
      case 1: {
        // The token refuses a transfer to its own sender; the next actor gets it instead.
        const other =
          to === from.accountId ? actors[(actors.indexOf(from) + 1) % actors.length]!.accountId : to;
        await ftTransfer(from, other, 1 + rand(500));
        break;
      }
      case 2: {
        // A delegate action signed by one account, paid for by another.
        const relayer = actors.find((a) => a !== from)!;
        const inner = rand(2) === 0 ? [A.transfer(NEAR / 100n)] : [];
        const { signedDelegate } = await from.createSignedMetaTransaction({
          receiverId: rand(2) === 0 ? to : token,
          actions:
            inner.length > 0
              ? inner
              : [A.functionCall('transfer', { new_owner_id: to, amount: '7' }, 50n * TGAS, NEAR / 10n)],
        });
        await relayer.relayMetaTransaction(signedDelegate);
        break;
      }
      case 3: {
        const kp = KeyPair.fromRandom('ed25519');
        if (rand(2) === 0) await from.addFullAccessKey(kp.getPublicKey());
        else
          await from.addFunctionCallAccessKey({
            publicKey: kp.getPublicKey(),
            contractId: token,
            methodNames: ['transfer'],
            allowance: NEAR / 4n,
          });
        keys.push([from.accountId, kp.getPublicKey().toString()]);
        if (rand(2) === 0) await from.deleteKey(kp.getPublicKey());
        break;
      }
      case 4:
        if (!contracts.includes(from.accountId)) {
          await from.deployContract(contract('main.wasm'));
          contracts.push(from.accountId);
        }
        if (from.accountId !== token)
          await c.root.callFunctionRaw({
            contractId: from.accountId,
            methodName: 'setValue',
            args: { value: `step ${step}` },
          });
        break;
      default:
        // A failing receipt on another shard: the deposit comes back as a refund.
        await from.signAndSendTransaction({
          receiverId: to,
          actions: [A.createAccount(), A.transfer(NEAR)],
          throwOnFailure: false,
        });
    }
  }
  // Deletions wait for the rest: a transfer to an account deleted mid-run would rightly fail.
  const deleted = [actors[1]!, actors[3]!];
  for (const a of deleted) await a.deleteAccount('test.near');
  return {
    token,
    accounts: ['test.near', token, ...names],
    deleted: deleted.map((a) => a.accountId),
    contracts,
    keys,
  };
}
