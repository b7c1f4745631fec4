// The independent light client against real execution proofs served by nearcore (near-api-js'
// light-client test vectors): every proof verifies under its block merkle root, and any tampering
// with the outcome, its paths, the header or the block path is rejected.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { type ExecutionProof, validateExecutionProof } from './helpers/light_client.js';

const dir = join(import.meta.dirname, 'fixtures', 'light-client-proofs');
const roots = JSON.parse(readFileSync(join(dir, 'expected_block_merkle_roots.json'), 'utf8')) as Record<
  string,
  string
>;
const files = Object.keys(roots).filter((k) => k.endsWith('.json'));
const load = (f: string): ExecutionProof => JSON.parse(readFileSync(join(dir, f), 'utf8')) as ExecutionProof;
const root = (f: string): Uint8Array => new Uint8Array(Buffer.from(String(roots[f]).slice(2), 'hex'));
// A different valid base58 hash, to swap into any hash field.
const OTHER = '11111111111111111111111111111112';

t.equal(files.length, 6, 'six real proofs');

for (const f of files) {
  t.test(f, async (t) => {
    t.doesNotThrow(() => validateExecutionProof(load(f), root(f)), 'verifies');
    const tampers: [string, (p: ExecutionProof) => void][] = [
      [
        'gas_burnt',
        (p) => {
          p.outcome_proof.outcome.gas_burnt += 1;
        },
      ],
      [
        'executor_id',
        (p) => {
          p.outcome_proof.outcome.executor_id += 'x';
        },
      ],
      [
        'outcome id',
        (p) => {
          p.outcome_proof.id = OTHER;
        },
      ],
      [
        'a log',
        (p) => {
          p.outcome_proof.outcome.logs.push('forged');
        },
      ],
      [
        'outcome_root',
        (p) => {
          p.block_header_lite.inner_lite.outcome_root = OTHER;
        },
      ],
      [
        'height',
        (p) => {
          p.block_header_lite.inner_lite.height += 1;
        },
      ],
      [
        'prev_block_hash',
        (p) => {
          p.block_header_lite.prev_block_hash = OTHER;
        },
      ],
    ];
    if (load(f).block_proof.length > 0) {
      tampers.push(
        [
          'block_proof step',
          (p) => {
            (p.block_proof[0] as { hash: string }).hash = OTHER;
          },
        ],
        [
          'block_proof direction',
          (p) => {
            const s = p.block_proof[0] as { direction: 'Left' | 'Right' };
            s.direction = s.direction === 'Left' ? 'Right' : 'Left';
          },
        ],
        [
          'block_proof dropped',
          (p) => {
            p.block_proof.pop();
          },
        ],
      );
    } else {
      tampers.push([
        'block_proof extended',
        (p) => void p.block_proof.push({ hash: OTHER, direction: 'Left' }),
      ]);
    }
    for (const [what, tamper] of tampers) {
      const p = load(f);
      tamper(p);
      t.throws(
        () => validateExecutionProof(p, root(f)),
        { name: 'LightClientError' },
        `tampered ${what} is rejected`,
      );
    }
    const wrongRoot = root(f);
    wrongRoot[0] = (wrongRoot[0] ?? 0) ^ 1;
    t.throws(
      () => validateExecutionProof(load(f), wrongRoot),
      { name: 'LightClientError' },
      'wrong merkle root is rejected',
    );
  });
}
