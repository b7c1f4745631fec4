// Signature checks on worker threads: verdicts match a check made in place, whatever mix a batch
// holds, and no check is lost when a worker dies.
import { generateKeyPairSync, sign } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SignatureCheck } from '@nearlite/chain';
import { KeyType, sha256, utf8 } from '@nearlite/primitives';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';
import { SignaturePool } from '../dist/signature_pool.js';

function ed25519Check(i: number, valid: boolean): SignatureCheck {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }).subarray(12));
  const message = sha256(utf8(`transaction ${i}`));
  const signature = new Uint8Array(sign(null, message, privateKey));
  if (!valid) signature[i % 64]! ^= 0x01;
  return {
    message,
    publicKey: { keyType: KeyType.ED25519, data: raw },
    signature: { keyType: KeyType.ED25519, data: signature },
  };
}

function secp256k1Check(valid: boolean): SignatureCheck {
  const secret = secp256k1.utils.randomSecretKey();
  const message = sha256(utf8('secp transaction'));
  const rec = secp256k1.sign(message, secret, { prehash: false, format: 'recovered' });
  // NEAR's layout: r ‖ s ‖ v.
  const signature = new Uint8Array(65);
  signature.set(rec.subarray(1), 0);
  signature[64] = rec[0]!;
  if (!valid) signature[3]! ^= 0x40;
  return {
    message,
    publicKey: { keyType: KeyType.SECP256K1, data: secp256k1.getPublicKey(secret, false).subarray(1) },
    signature: { keyType: KeyType.SECP256K1, data: signature },
  };
}

t.test('a batch mixing good and bad signatures gets each its own verdict', async (t) => {
  const pool = new SignaturePool({ size: 2, maxBatch: 16 });
  t.teardown(() => pool.close());
  const checks = Array.from({ length: 100 }, (_, i) => ed25519Check(i, i % 3 !== 0));
  const verdicts = await Promise.all(checks.map((c) => pool.check(c)));
  t.same(
    verdicts,
    checks.map((_, i) => i % 3 !== 0),
  );
  t.equal(pool.workers, 2);
});

t.test('secp256k1 keys and a key type that does not match its signature', async (t) => {
  const pool = new SignaturePool({ size: 1 });
  t.teardown(() => pool.close());
  const good = secp256k1Check(true);
  const ed = ed25519Check(1, true);
  const mismatched = { ...ed, signature: { keyType: KeyType.SECP256K1, data: new Uint8Array(65) } };
  t.same(await Promise.all([pool.check(good), pool.check(secp256k1Check(false)), pool.check(mismatched)]), [
    true,
    false,
    false,
  ]);
});

t.test('checks a crashed worker held are answered, and the worker is replaced', async (t) => {
  const dir = tempDir(t);
  const marker = join(dir, 'crashed');
  const real = new URL('../dist/signature_worker.js', import.meta.url).href;
  // Dies on the first batch it receives, once; every later start is the real worker.
  const script = join(dir, 'crash_once.mjs');
  writeFileSync(
    script,
    `import { existsSync, writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
if (existsSync(${JSON.stringify(marker)})) await import(${JSON.stringify(real)});
else parentPort.once('message', () => { writeFileSync(${JSON.stringify(marker)}, ''); process.exit(1); });
`,
  );
  const pool = new SignaturePool({ size: 1, workerUrl: pathToFileURL(script) });
  t.teardown(() => pool.close());
  const first = Array.from({ length: 20 }, (_, i) => ed25519Check(i, i % 2 === 0));
  t.same(
    await Promise.all(first.map((c) => pool.check(c))),
    first.map((_, i) => i % 2 === 0),
  );
  const later = Array.from({ length: 20 }, (_, i) => ed25519Check(i, i % 4 !== 1));
  t.same(
    await Promise.all(later.map((c) => pool.check(c))),
    later.map((_, i) => i % 4 !== 1),
  );
  t.equal(pool.workers, 1, 'the replacement is running');
});

t.test('a worker that keeps crashing is retired and checks run in place', async (t) => {
  const dir = tempDir(t);
  const script = join(dir, 'always_crash.mjs');
  writeFileSync(
    script,
    `import { parentPort } from 'node:worker_threads';
parentPort.on('message', () => process.exit(3));
`,
  );
  const pool = new SignaturePool({ size: 1, workerUrl: pathToFileURL(script) });
  t.teardown(() => pool.close());
  for (let round = 0; round < 6; round++) {
    const checks = Array.from({ length: 5 }, (_, i) => ed25519Check(i, (i + round) % 2 === 0));
    t.same(
      await Promise.all(checks.map((c) => pool.check(c))),
      checks.map((_, i) => (i + round) % 2 === 0),
      `round ${round}`,
    );
  }
  t.equal(pool.workers, 0, 'no worker is started again');
});
