import { base58Encode } from '@nearlite/primitives';
import { randomBytes } from 'node:crypto';
const xs = Array.from({ length: 1000 }, () => new Uint8Array(randomBytes(32)));
const v = [];
for (let r = 0; r < 7; r++) {
  const t0 = process.hrtime.bigint(); let s = 0;
  for (let k = 0; k < 100; k++) for (const x of xs) s += base58Encode(x).length;
  v.push(Number(process.hrtime.bigint() - t0) / 100000);
}
console.log(Math.min(...v).toFixed(0), 'ns');
