// `node bench/src/disk.js [--quick]`: a GC node and an archival node under the same steady transfer
// load for many epochs; the database size of each is sampled every epoch. GC's levels off.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { actions as A, KeyPair } from 'near-api-js';
import { cliSync, rpc, startNode } from './node_process.js';
import { sendBatch } from './sender.js';

const quick = process.argv.includes('--quick');
const EPOCH = 20;
const EPOCHS = quick ? 16 : 40;
const CACHE = join(import.meta.dirname, '..', '.cache');
const RESULTS = join(import.meta.dirname, '..', 'results');
mkdirSync(RESULTS, { recursive: true });

const duKb = (dir) => Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]);

async function run(kind) {
  const home = join(CACHE, `disk-${kind}`);
  rmSync(home, { recursive: true, force: true });
  cliSync(['init', '--home', home, '--epoch-length', String(EPOCH), '--chain-id', 'disk']);
  const cfgPath = join(home, 'config.json');
  const cfg = JSON.parse(readFileSync(cfgPath, 'utf8'));
  cfg.gc_num_epochs_to_keep = 3;
  writeFileSync(cfgPath, JSON.stringify(cfg));
  const node = await startNode(home, ['--block-time', '20', ...(kind === 'archival' ? ['--archive'] : [])]);
  const key = KeyPair.fromString(
    JSON.parse(readFileSync(join(home, 'validator_key.json'), 'utf8')).secret_key,
  );
  const samples = [];
  try {
    for (let e = 1; e <= EPOCHS; e++) {
      // A steady load: a batch of transfers per epoch, then wait for the epoch to end.
      await sendBatch(
        node.url,
        key,
        'test.near',
        Array.from({ length: 150 }, () => ({ receiverId: 'near', actions: [A.transfer(1n)] })),
      );
      for (;;) {
        const h = (await rpc(node.url, 'block', { finality: 'optimistic' })).header.height;
        if (h >= e * EPOCH) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      samples.push({ epoch: e, kb: duKb(join(home, 'data')) });
      process.stderr.write(`${kind} epoch ${e}: ${samples.at(-1).kb} kB\n`);
    }
  } finally {
    await node.stop();
  }
  return samples;
}

const gc = await run('gc');
const archival = await run('archival');
const result = { date: new Date().toISOString(), epochLength: EPOCH, gcNumEpochsToKeep: 3, gc, archival };
writeFileSync(join(RESULTS, 'disk.json'), `${JSON.stringify(result, null, 2)}\n`);
const lines = [
  '| epoch | GC node (kB) | archival node (kB) |',
  '|---:|---:|---:|',
  ...gc.map((s, i) => `| ${s.epoch} | ${s.kb} | ${archival[i].kb} |`),
];
writeFileSync(join(RESULTS, 'disk.md'), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
