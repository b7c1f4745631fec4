// The validator's signer: RFC 8032's ed25519 test vectors (section 7.1, tests 1 and 2), whichever
// library signs (libsodium where sodium-native loads, node:crypto otherwise).
import { base58Encode, ed25519Verifier, sodium } from '@nearlite/primitives';
import t from 'tap';
import { keyFileFromTestSeed, signerFromKeyFile } from '../src/genesis/keys.js';

const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const VECTORS = [
  {
    seed: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    publicKey: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    message: '',
    signature:
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
  },
  {
    seed: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    publicKey: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
    message: '72',
    signature:
      '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
  },
];

t.test('RFC 8032 tests 1 and 2: the public key and the signature, from a 64- or 32-byte key', async (t) => {
  t.ok(sodium() !== null, `libsodium loads here (${ed25519Verifier()})`);
  for (const v of VECTORS) {
    const secret = new Uint8Array(64);
    secret.set(hex(v.seed));
    secret.set(hex(v.publicKey), 32);
    for (const key of [secret, hex(v.seed)]) {
      const signer = signerFromKeyFile({
        account_id: 'test.near',
        secret_key: `ed25519:${base58Encode(key)}`,
      });
      t.equal(Buffer.from(signer.publicKey.data).toString('hex'), v.publicKey);
      t.equal(Buffer.from(signer.sign(hex(v.message)).data).toString('hex'), v.signature);
    }
  }
});

t.test(
  'nearcore\'s key from a test seed (init --test-seed): its signature.rs vector for seed "test"',
  async (t) => {
    const k = keyFileFromTestSeed('test.near', 'test');
    t.equal(k.public_key, 'ed25519:DcA2MzgpJbrUATQLLceocVckhhAqrkingax4oJ9kZ847');
    t.equal(
      k.secret_key,
      'ed25519:3KyUuch8pYP47krBq4DosFEVBMR5wDTMQ8AThzM8kAEcBQEpsPdYTZ2FPX5ZnSoLrerjwg66hwwJaW1wHzprd5k3',
    );
    t.equal(k.account_id, 'test.near');
    const long = keyFileFromTestSeed('a.near', 'x'.repeat(40));
    t.same(long, keyFileFromTestSeed('a.near', 'x'.repeat(32)), 'a seed is cut to 32 bytes');
  },
);
