// The VM config of a view call at a block of NEAR's networks, against nearcore's parameter snapshots
// of 84 and 85 (core/parameters/src/snapshots/near_parameters__config_store__tests__{84,85}.json.snap:
// the wasm_config flags below are theirs) and its clamp of a view's version up to 84.
import {
  DEFAULT_RUNTIME_CONFIG_VIEW,
  MIN_SUPPORTED_PROTOCOL_VERSION,
  networkViewVMConfig,
  parseRuntimeConfig,
} from '@nearlite/runtime';
import t from 'tap';

const own = parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW).wasm;
const FLAGS = [
  'global_contract_host_fns',
  'reftypes_bulk_memory',
  'gas_key_host_fns',
  'one_yocto_on_promise',
  'p256_verify_host_fn',
  'yield_with_id_host_fns',
  'chain_id_host_fn',
  'bls12381_not_in_group_fix',
  'fix_contract_loading_cost',
  'implicit_account_creation',
  'eth_implicit_accounts',
  'discard_custom_sections',
] as const;
const flags = (c: typeof own) => Object.fromEntries(FLAGS.map((f) => [f, c[f]]));
const SNAPSHOT_84 = {
  global_contract_host_fns: true,
  reftypes_bulk_memory: true,
  gas_key_host_fns: false,
  one_yocto_on_promise: false,
  p256_verify_host_fn: false,
  yield_with_id_host_fns: false,
  chain_id_host_fn: false,
  bls12381_not_in_group_fix: false,
  fix_contract_loading_cost: false,
  implicit_account_creation: true,
  eth_implicit_accounts: true,
  discard_custom_sections: true,
};
const SNAPSHOT_85 = {
  ...SNAPSHOT_84,
  gas_key_host_fns: true,
  one_yocto_on_promise: true,
  p256_verify_host_fn: true,
  yield_with_id_host_fns: true,
  chain_id_host_fn: true,
};

t.test("the flags of 84 and of 85 and after are nearcore's", async (t) => {
  t.equal(MIN_SUPPORTED_PROTOCOL_VERSION, 84);
  t.same(flags(networkViewVMConfig(own, 84)), SNAPSHOT_84);
  for (const v of [85, 86]) t.same(flags(networkViewVMConfig(own, v)), SNAPSHOT_85, `${v}`);
});

t.test('versions before 84 are clamped up to it; later ones than this node knows run its own', async (t) => {
  const at84 = networkViewVMConfig(own, 84);
  for (const v of [29, 63, 83]) t.equal(networkViewVMConfig(own, v), at84, `${v} runs 84's`);
  for (const v of [85, 86, 90, 1_000]) t.equal(networkViewVMConfig(own, v), own, `${v} runs this node's`);
});

t.test('84 differs from this node in the five flags only', async (t) => {
  const at84 = networkViewVMConfig(own, 84);
  const {
    gas_key_host_fns,
    one_yocto_on_promise,
    p256_verify_host_fn,
    yield_with_id_host_fns,
    chain_id_host_fn,
    ...rest84
  } = at84;
  const {
    gas_key_host_fns: _a,
    one_yocto_on_promise: _b,
    p256_verify_host_fn: _c,
    yield_with_id_host_fns: _d,
    chain_id_host_fn: _e,
    ...restOwn
  } = own;
  t.same(rest84, restOwn);
  t.same(
    [gas_key_host_fns, one_yocto_on_promise, p256_verify_host_fn, yield_with_id_host_fns, chain_id_host_fn],
    [false, false, false, false, false],
  );
});
