// The VM config the runtime runs contracts with is the snapshot's: every host-function cost, and the
// bls12381 subgroup gate (off at protocol 86, so the sums and decompressions refuse G1's (0, ±2)).
import { EXT_COSTS } from '@nearlite/vm';
import t from 'tap';
import { config } from './helpers.js';
import { SNAPSHOT } from './snapshot.js';

const snap = SNAPSHOT.wasm_config as unknown as {
  ext_costs: Record<string, number>;
  bls12381_not_in_group_fix: boolean;
};

t.test('every ext cost the VM charges is the snapshot’s', async (t) => {
  for (const k of EXT_COSTS) {
    t.ok(k in snap.ext_costs, `${k} is in the snapshot`);
    t.equal(config.wasm.ext_costs[k], BigInt(snap.ext_costs[k]!), k);
  }
  const bls = Object.keys(snap.ext_costs).filter((k) => k.startsWith('bls12381_'));
  t.equal(bls.length, 18, 'a base and an element cost for each of the nine functions');
  t.ok(
    bls.every((k) => (EXT_COSTS as readonly string[]).includes(k)),
    'the VM knows all of them',
  );
});

t.test('bls12381_not_in_group_fix follows the snapshot', async (t) => {
  t.equal(snap.bls12381_not_in_group_fix, false);
  t.equal(config.wasm.bls12381_not_in_group_fix, snap.bls12381_not_in_group_fix);
});
