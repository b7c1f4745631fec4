// Verifies a batch of transaction signatures (see signature_pool.ts for the layout) and answers
// with one verdict byte per check.
import { parentPort } from 'node:worker_threads';
import { forwardThreadWarnings, verifySignature } from '@nearlite/primitives';
import { type SignatureBatch, unpackChecks } from './signature_batch.js';

forwardThreadWarnings();
parentPort!.on('message', (batch: SignatureBatch) => {
  const items = new Uint8Array(batch.items);
  const verdicts = new Uint8Array(batch.count);
  let i = 0;
  for (const c of unpackChecks(items, batch.count)) {
    verdicts[i++] = verifySignature(c.message, c.signature, c.publicKey) ? 1 : 0;
  }
  parentPort!.postMessage({ id: batch.id, verdicts: verdicts.buffer }, [verdicts.buffer]);
});
