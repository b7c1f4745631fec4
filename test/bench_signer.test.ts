// The bench's load generator encodes its transfers by hand (bench/src/signer.js): the bytes it
// sends must be exactly the transaction near-api-js would sign, or the bench measures refusals.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { actions, createTransaction, encodeTransaction, KeyPair } from 'near-api-js';
import t from 'tap';
// @ts-expect-error: the bench is plain JavaScript without declarations
import { fastTransferSigner } from '../bench/src/signer.js';

const SPKI_ED25519 = Buffer.from('302a300506032b6570032100', 'hex');

t.test('a hand-encoded transfer is the transaction near-api-js encodes, signed by its key', async (t) => {
  const key = KeyPair.fromRandom('ed25519');
  const pk = key.getPublicKey();
  const transfer = fastTransferSigner(key) as (
    s: string,
    r: string,
    n: bigint,
    h: Uint8Array,
    d: bigint,
  ) => string;
  const blockHash = createHash('sha256').update('block').digest();
  const cases: [string, string, bigint, bigint][] = [
    ['alice.test.near', 'bob.test.near', 1n, 1n],
    ['a0.bench.near', 'f'.repeat(64), 2n ** 53n + 7n, 10n ** 24n * 123n + 45n],
    ['x.near', 'x.near', 18446744073709551615n, 2n ** 128n - 1n],
  ];
  for (const [signer, receiver, nonce, deposit] of cases) {
    const tx = createTransaction(signer, pk, receiver, nonce, [actions.transfer(deposit)], blockHash);
    const expected = Buffer.from(encodeTransaction(tx));
    const got = Buffer.from(transfer(signer, receiver, nonce, blockHash, deposit), 'base64');
    t.same(got.subarray(0, expected.length), expected, `${signer} → ${receiver}: transaction bytes`);
    t.equal(got[expected.length], 0, 'ed25519 signature tag');
    const signature = got.subarray(expected.length + 1);
    t.equal(signature.length, 64);
    const publicKey = createPublicKey({
      key: Buffer.concat([SPKI_ED25519, Buffer.from(pk.data)]),
      format: 'der',
      type: 'spki',
    });
    const digest = createHash('sha256').update(expected).digest();
    t.ok(verify(null, digest, publicKey, signature), 'signature over sha256 of the transaction');
  }
});
