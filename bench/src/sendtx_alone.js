// The send_tx case alone, with its duration and warm-up from the command line:
// `node bench/src/sendtx_alone.js [--quick] [--duration S] [--warmup S]`.
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { KeyPair } from 'near-api-js';
import { buildDataset } from './dataset.js';
import { benchParams } from './params.js';
import { measureSendTx } from './send_tx.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const quick = process.argv.includes('--quick');
const P = benchParams(quick);
const log = (m) => process.stderr.write(`${m}\n`);
const CACHE = join(import.meta.dirname, '..', '.cache');
const dataset = await buildDataset(CACHE, P, log);
const home = join(CACHE, `sendtx-${P.name}`);
rmSync(home, { recursive: true, force: true });
cpSync(dataset.home, home, { recursive: true });
const tx = await measureSendTx(home, dataset.meta, KeyPair.fromString(dataset.meta.sharedSecret), {
  accounts: quick ? 300 : 1200,
  keysPerAccount: quick ? 4 : 1,
  duration: arg('--duration', P.duration),
  warmup: arg('--warmup', 1),
  log,
});
log(JSON.stringify(tx.row));
rmSync(home, { recursive: true, force: true });
