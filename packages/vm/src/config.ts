// VMConfig and RuntimeFeesConfig parsed from nearcore's protocol-config JSON
// (`runtime_config.wasm_config` and `runtime_config.transaction_costs`), with nearcore's field names.

export const EXT_COSTS = [
  'base',
  'contract_loading_base',
  'contract_loading_bytes',
  'read_memory_base',
  'read_memory_byte',
  'write_memory_base',
  'write_memory_byte',
  'read_register_base',
  'read_register_byte',
  'write_register_base',
  'write_register_byte',
  'utf8_decoding_base',
  'utf8_decoding_byte',
  'utf16_decoding_base',
  'utf16_decoding_byte',
  'sha256_base',
  'sha256_byte',
  'keccak256_base',
  'keccak256_byte',
  'keccak512_base',
  'keccak512_byte',
  'ripemd160_base',
  'ripemd160_block',
  'ed25519_verify_base',
  'ed25519_verify_byte',
  'ecrecover_base',
  'log_base',
  'log_byte',
  'storage_write_base',
  'storage_write_key_byte',
  'storage_write_value_byte',
  'storage_write_evicted_byte',
  'storage_read_base',
  'storage_read_key_byte',
  'storage_read_value_byte',
  'storage_large_read_overhead_base',
  'storage_large_read_overhead_byte',
  'storage_remove_base',
  'storage_remove_key_byte',
  'storage_remove_ret_value_byte',
  'storage_has_key_base',
  'storage_has_key_byte',
  'touching_trie_node',
  'read_cached_trie_node',
  'promise_and_base',
  'promise_and_per_promise',
  'promise_return',
  'validator_stake_base',
  'validator_total_stake_base',
  'alt_bn128_g1_multiexp_base',
  'alt_bn128_g1_multiexp_element',
  'alt_bn128_g1_sum_base',
  'alt_bn128_g1_sum_element',
  'alt_bn128_pairing_check_base',
  'alt_bn128_pairing_check_element',
  'yield_create_base',
  'yield_create_byte',
  'yield_create_with_id_base',
  'yield_resume_base',
  'yield_resume_byte',
  'bls12381_p1_sum_base',
  'bls12381_p1_sum_element',
  'bls12381_p2_sum_base',
  'bls12381_p2_sum_element',
  'bls12381_g1_multiexp_base',
  'bls12381_g1_multiexp_element',
  'bls12381_g2_multiexp_base',
  'bls12381_g2_multiexp_element',
  'bls12381_map_fp_to_g1_base',
  'bls12381_map_fp_to_g1_element',
  'bls12381_map_fp2_to_g2_base',
  'bls12381_map_fp2_to_g2_element',
  'bls12381_pairing_base',
  'bls12381_pairing_element',
  'bls12381_p1_decompress_base',
  'bls12381_p1_decompress_element',
  'bls12381_p2_decompress_base',
  'bls12381_p2_decompress_element',
  'p256_verify_base',
  'p256_verify_byte',
] as const;
export type ExtCost = (typeof EXT_COSTS)[number];
export type ExtCostsConfig = Readonly<Record<ExtCost, bigint>>;

/**
 * The host costs whose compute cost is not their gas cost, per unit (parameters.snap at protocol
 * 86; views do not show compute costs). Compute bounds what a chunk runs: a chunk stops taking
 * receipts once their compute, not their gas, reaches its limit.
 */
export const EXT_COMPUTE_COSTS: Readonly<Partial<Record<ExtCost, bigint>>> = {
  storage_write_base: 200_000_000_000n,
  storage_read_base: 159_000_000_000n,
  storage_read_key_byte: 10_000_000n,
  storage_read_value_byte: 2_500_000n,
  storage_large_read_overhead_base: 41_000_000_000n,
  storage_large_read_overhead_byte: 3_111_005n,
  storage_remove_base: 200_000_000_000n,
  storage_has_key_base: 158_000_000_000n,
  storage_has_key_byte: 10_000_000n,
  touching_trie_node: 4_000_000_000n,
  read_cached_trie_node: 4_000_000_000n,
};

export interface LimitConfig {
  readonly max_gas_burnt: bigint;
  readonly max_stack_height: number;
  readonly initial_memory_pages: number;
  readonly max_memory_pages: number;
  readonly registers_memory_limit: bigint;
  readonly max_register_size: bigint;
  readonly max_number_registers: bigint;
  readonly max_number_logs: bigint;
  readonly max_total_log_length: bigint;
  readonly max_total_prepaid_gas: bigint;
  readonly max_actions_per_receipt: bigint;
  readonly max_number_bytes_method_names: bigint;
  readonly max_length_method_name: bigint;
  readonly max_arguments_length: bigint;
  readonly max_length_returned_data: bigint;
  readonly max_contract_size: bigint;
  readonly max_transaction_size: bigint;
  readonly max_receipt_size: bigint;
  readonly max_length_storage_key: bigint;
  readonly max_length_storage_value: bigint;
  readonly max_promises_per_function_call_action: bigint;
  readonly max_number_input_data_dependencies: bigint;
  readonly max_functions_number_per_contract: bigint;
  readonly max_locals_per_contract: bigint;
  readonly max_yield_payload_size: bigint;
  readonly yield_timeout_length_in_blocks: bigint;
  /** What one function call may add to the chunk's recorded storage proof (protocol 69). */
  readonly per_receipt_storage_proof_size_limit: number;
  // prepare_v3's limits: nearcore leaves each unset (None, no limit) before it introduced it.
  readonly max_tables_per_contract: bigint | null;
  readonly max_elements_per_contract_table: bigint | null;
  readonly max_function_body_size: bigint | null;
  readonly max_instrumented_code_size: bigint | null;
  readonly max_blocks_per_function: bigint | null;
  readonly max_blocks_per_contract: bigint | null;
  readonly max_types_per_contract: bigint | null;
  readonly max_params_per_contract: bigint | null;
  readonly max_params_per_function: bigint | null;
  readonly max_operand_stack_bytes_per_function: bigint | null;
}

export interface VMConfig {
  readonly ext_costs: ExtCostsConfig;
  /** Compute per unit where it differs from `ext_costs` (EXT_COMPUTE_COSTS). */
  readonly ext_compute_costs: Readonly<Partial<Record<ExtCost, bigint>>>;
  readonly grow_mem_cost: number;
  readonly regular_op_cost: bigint;
  /** The fixed part of a bulk instruction's fee (memory.grow/fill/copy/init, table.grow/fill/copy/init). */
  readonly linear_op_base_cost: bigint;
  /** The part per page, byte or element the bulk instruction's count operand asks for. */
  readonly linear_op_unit_cost: bigint;
  readonly limit_config: LimitConfig;
  readonly discard_custom_sections: boolean;
  readonly saturating_float_to_int: boolean;
  readonly reftypes_bulk_memory: boolean;
  readonly implicit_account_creation: boolean;
  readonly eth_implicit_accounts: boolean;
  readonly fix_contract_loading_cost: boolean;
  readonly deterministic_account_ids: boolean;
  /** NEP-488: the bls12381 sums and decompressions accept the curve points (0, ±2). */
  readonly bls12381_not_in_group_fix: boolean;
  /** A zero-balance contract may attach exactly 1 yoctoNEAR to a call it makes (protocol 85). */
  readonly one_yocto_on_promise: boolean;
  // The flags that gate host functions (imports.ts names the functions behind each): a contract
  // importing a function whose flag is off does not link.
  readonly global_contract_host_fns: boolean;
  readonly gas_key_host_fns: boolean;
  readonly p256_verify_host_fn: boolean;
  readonly yield_with_id_host_fns: boolean;
  readonly chain_id_host_fn: boolean;
}

export class VMConfigError extends Error {
  override readonly name = 'VMConfigError';
}

type Json = Record<string, unknown>;

function obj(v: unknown, what: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new VMConfigError(`${what}: expected an object`);
  return v as Json;
}

function big(o: Json, key: string, what: string): bigint {
  const v = o[key];
  if (typeof v === 'bigint') return v;
  if ((typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^\d+$/.test(v)))
    return BigInt(v);
  throw new VMConfigError(`${what}.${key}: expected an unsigned integer`);
}

function bool(o: Json, key: string, fallback: boolean): boolean {
  const v = o[key];
  return typeof v === 'boolean' ? v : fallback;
}

const LIMIT_KEYS_BIGINT = [
  'max_gas_burnt',
  'registers_memory_limit',
  'max_register_size',
  'max_number_registers',
  'max_number_logs',
  'max_total_log_length',
  'max_total_prepaid_gas',
  'max_actions_per_receipt',
  'max_number_bytes_method_names',
  'max_length_method_name',
  'max_arguments_length',
  'max_length_returned_data',
  'max_contract_size',
  'max_transaction_size',
  'max_receipt_size',
  'max_length_storage_key',
  'max_length_storage_value',
  'max_promises_per_function_call_action',
  'max_number_input_data_dependencies',
  'max_functions_number_per_contract',
  'max_locals_per_contract',
  'max_yield_payload_size',
  'yield_timeout_length_in_blocks',
] as const;

const LIMIT_KEYS_OPTIONAL = [
  'max_tables_per_contract',
  'max_elements_per_contract_table',
  'max_function_body_size',
  'max_instrumented_code_size',
  'max_blocks_per_function',
  'max_blocks_per_contract',
  'max_types_per_contract',
  'max_params_per_contract',
  'max_params_per_function',
  'max_operand_stack_bytes_per_function',
] as const;

function optBig(o: Json, key: string, what: string): bigint | null {
  return o[key] === undefined || o[key] === null ? null : big(o, key, what);
}

/** Parses `runtime_config.wasm_config` as `EXPERIMENTAL_protocol_config` prints it. */
export function parseVMConfig(json: unknown): VMConfig {
  const w = obj(json, 'wasm_config');
  const ec = obj(w.ext_costs, 'wasm_config.ext_costs');
  const ext = {} as Record<ExtCost, bigint>;
  for (const k of EXT_COSTS) ext[k] = big(ec, k, 'ext_costs');
  const lc = obj(w.limit_config, 'wasm_config.limit_config');
  const limits: Record<string, bigint | number | null> = {};
  for (const k of LIMIT_KEYS_BIGINT) limits[k] = big(lc, k, 'limit_config');
  for (const k of LIMIT_KEYS_OPTIONAL) limits[k] = optBig(lc, k, 'limit_config');
  for (const k of ['max_stack_height', 'initial_memory_pages', 'max_memory_pages'] as const) {
    const v = big(lc, k, 'limit_config');
    if (v > 0xffffffffn) throw new VMConfigError(`limit_config.${k}: out of range`);
    limits[k] = Number(v);
  }
  // u32::MAX (no limit in practice) in the views of versions before it.
  limits.per_receipt_storage_proof_size_limit =
    lc.per_receipt_storage_proof_size_limit === undefined
      ? 0xffffffff
      : Number(big(lc, 'per_receipt_storage_proof_size_limit', 'limit_config'));
  return {
    ext_costs: ext,
    ext_compute_costs: EXT_COMPUTE_COSTS,
    grow_mem_cost: Number(big(w, 'grow_mem_cost', 'wasm_config')),
    regular_op_cost: big(w, 'regular_op_cost', 'wasm_config'),
    linear_op_base_cost: big(w, 'linear_op_base_cost', 'wasm_config'),
    linear_op_unit_cost: big(w, 'linear_op_unit_cost', 'wasm_config'),
    limit_config: limits as unknown as LimitConfig,
    discard_custom_sections: bool(w, 'discard_custom_sections', true),
    // nearcore stopped printing these once they were on at every supported version (78 and 82).
    saturating_float_to_int: bool(w, 'saturating_float_to_int', true),
    reftypes_bulk_memory: bool(w, 'reftypes_bulk_memory', false),
    implicit_account_creation: bool(w, 'implicit_account_creation', true),
    eth_implicit_accounts: bool(w, 'eth_implicit_accounts', false),
    fix_contract_loading_cost: bool(w, 'fix_contract_loading_cost', false),
    deterministic_account_ids: bool(w, 'deterministic_account_ids', true),
    bls12381_not_in_group_fix: bool(w, 'bls12381_not_in_group_fix', false),
    one_yocto_on_promise: bool(w, 'one_yocto_on_promise', false),
    // A view from before a flag existed is of a protocol without its functions.
    global_contract_host_fns: bool(w, 'global_contract_host_fns', false),
    gas_key_host_fns: bool(w, 'gas_key_host_fns', false),
    p256_verify_host_fn: bool(w, 'p256_verify_host_fn', false),
    yield_with_id_host_fns: bool(w, 'yield_with_id_host_fns', false),
    chain_id_host_fn: bool(w, 'chain_id_host_fn', false),
  };
}

/** A stable string of everything preparation bakes into the instrumented module. */
export function prepareConfigKey(c: VMConfig): string {
  const l = c.limit_config;
  return [
    c.regular_op_cost,
    c.linear_op_base_cost,
    c.linear_op_unit_cost,
    l.initial_memory_pages,
    l.max_memory_pages,
    l.max_stack_height,
    l.max_functions_number_per_contract,
    l.max_locals_per_contract,
    ...LIMIT_KEYS_OPTIONAL.map((k) => l[k] ?? '-'),
    c.saturating_float_to_int ? 1 : 0,
    c.reftypes_bulk_memory ? 1 : 0,
  ].join(':');
}
