// Key files as nearcore writes them, checked against near-api-js's own ed25519 (an independent
// implementation): the public key is the seed's, and what the signer signs verifies under it.
import { generateKeyFile, signerFromKeyFile } from '@nearlite/chain';
import { KeyPair } from 'near-api-js';
import t from 'tap';

t.test('a generated key file holds a seed and its public key; its signatures verify', async (t) => {
  for (let i = 0; i < 20; i++) {
    const file = generateKeyFile('test.near');
    t.match(file.secret_key, /^ed25519:[1-9A-HJ-NP-Za-km-z]+$/);
    const reference = KeyPair.fromString(file.secret_key as `ed25519:${string}`);
    t.equal(reference.getPublicKey().toString(), file.public_key, `key ${i}: the seed's public key`);
    const message = new TextEncoder().encode(`message ${i}`);
    const signer = signerFromKeyFile(file);
    t.ok(reference.verify(message, signer.sign(message).data), `key ${i}: a signature verifies`);
  }
  const a = generateKeyFile('a.near');
  const b = generateKeyFile('b.near');
  t.not(a.secret_key, b.secret_key, 'two keys differ');
});
