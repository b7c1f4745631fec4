// Chain activity for the block-stream tests: an account creation, a contract deploy and call (with
// its receipts and refunds), a transfer to another account and one to the signer itself (a local
// receipt). Returns the transaction hashes.
import { Account, KeyPair, KeyPairSigner } from 'near-api-js';
import type { LocalChain } from './chain.js';
import { contract } from './contracts.js';

const NEAR = 10n ** 24n;

export async function streamActivity(c: LocalChain): Promise<string[]> {
  const hashes: string[] = [];
  const kp = KeyPair.fromRandom('ed25519');
  const created = await c.root.createAccount({
    newAccountId: 'hello.test.near',
    publicKey: kp.getPublicKey(),
    nearToTransfer: 20n * NEAR,
  });
  hashes.push(created.transaction.hash);
  const hello = new Account('hello.test.near', c.provider, new KeyPairSigner(kp));
  hashes.push((await hello.deployContract(contract('main.wasm'))).transaction.hash);
  const call = await c.root.callFunctionRaw({
    contractId: 'hello.test.near',
    methodName: 'setValue',
    args: { value: 'streamed' },
  });
  hashes.push(call.transaction.hash);
  hashes.push((await c.root.transfer({ receiverId: 'hello.test.near', amount: 1n })).transaction.hash);
  hashes.push((await c.root.transfer({ receiverId: 'test.near', amount: 2n })).transaction.hash);
  return hashes;
}
