// Read cache policies side by side at one byte budget: the two-generation map LRU the store used
// first, lru-cache's exact LRU, which it used next, and the store's own exact LRU. A miss costs a
// LevelDB read, so hit rate is what serves reads; ops/s says what the policy itself costs. Run
// alone: `npm run build && node bench/src/cache.js`.
import { LRUCache } from 'lru-cache';
import { LruCache } from '../../packages/store/dist/lru.js';
import { rng } from '../../scripts/rng.mjs';

/** The policy the store used before: two maps, the old generation dropped whole when the young fills. */
class GenerationalLru {
  young = new Map();
  old = new Map();
  youngWeight = 0;

  constructor(capacity, weigh) {
    this.half = Math.max(1, Math.floor(capacity / 2));
    this.weigh = weigh;
  }

  get(key) {
    const v = this.young.get(key);
    if (v !== undefined) return v;
    const o = this.old.get(key);
    if (o !== undefined) {
      this.old.delete(key);
      this.set(key, o);
    }
    return o;
  }

  set(key, value) {
    this.old.delete(key);
    if (this.youngWeight >= this.half) {
      this.old = this.young;
      this.young = new Map();
      this.youngWeight = 0;
    }
    this.young.set(key, value);
    this.youngWeight += this.weigh(value);
  }
}

const BUDGET = 32 * 1024 * 1024;
const OPS = 2_000_000;

/**
 * A node's mix: most reads go to a skewed hot set (accounts, recent blocks, trie nodes near the
 * root), some sweep the whole key space (random old blocks), and rows vary from 100 B to 4 kB.
 */
function workload(seed) {
  const r = rng(seed);
  const keys = 50_000;
  const size = (k) => 100 + ((k * 2654435761) % 4000);
  const ops = new Int32Array(OPS);
  for (let i = 0; i < OPS; i++) {
    const u = r();
    ops[i] = u < 0.8 ? Math.floor(keys * r() ** 4) : Math.floor(keys * r());
  }
  return { ops, size };
}

function run(name, make, { ops, size }) {
  const cache = make();
  let hits = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < ops.length; i++) {
    const k = `k${ops[i]}`;
    if (cache.get(k) !== undefined) hits++;
    else cache.set(k, new Uint8Array(size(ops[i])));
  }
  const ns = Number(process.hrtime.bigint() - start);
  return { policy: name, hitRate: hits / ops.length, opsPerSec: Math.round((ops.length / ns) * 1e9) };
}

export function measureCaches() {
  const w = workload(42);
  const weigh = (v) => v.length + 64;
  return [
    run('generational (two maps)', () => new GenerationalLru(BUDGET, weigh), w),
    run('lru-cache 11', () => new LRUCache({ maxSize: BUDGET, sizeCalculation: weigh }), w),
    run('exact LRU (the store)', () => new LruCache(BUDGET, weigh), w),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of measureCaches())
    console.log(`${r.policy.padEnd(26)} hit rate ${(r.hitRate * 100).toFixed(1)} %  ${r.opsPerSec} ops/s`);
}
