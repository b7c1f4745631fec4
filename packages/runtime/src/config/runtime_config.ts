// The runtime's parameters, parsed once from nearcore's runtime_config view.
import {
  GLOBAL_CONTRACT_STORAGE_AMOUNT_PER_BYTE,
  parseFeesConfig,
  parseVMConfig,
  type RuntimeFeesConfig,
  type VMConfig,
} from '@nearlite/vm';

/** nearcore's CongestionControlConfig, the part this chain reads. */
export interface CongestionControlConfig {
  readonly maxCongestionIncomingGas: bigint;
  readonly maxCongestionOutgoingGas: bigint;
  readonly maxCongestionMemoryConsumption: bigint;
  readonly maxCongestionMissedChunks: bigint;
  readonly maxTxGas: bigint;
  readonly minTxGas: bigint;
  readonly rejectTxCongestionThreshold: number;
  /** What a shard may send another at congestion 0 and just below 1 (mixed between by the level). */
  readonly maxOutgoingGas: bigint;
  readonly minOutgoingGas: bigint;
  /** What the allowed shard alone may send a fully congested shard. */
  readonly allowedShardOutgoingGas: bigint;
}

/**
 * nearcore's BandwidthSchedulerConfig: bytes of receipts a shard may send or receive at one height,
 * on one link at most, what a link's allowance may grow to, and the most a link is granted by default.
 */
export interface BandwidthSchedulerConfig {
  readonly maxShardBandwidth: number;
  readonly maxSingleGrant: number;
  readonly maxAllowance: number;
  readonly maxBaseBandwidth: number;
}

/**
 * The compute costs that are not their gas (parameters.snap at protocol 86; views show gas only).
 * A chunk stops taking receipts once their compute reaches its limit (nearcore's compute_limit, the
 * chunk's gas limit); the gas burnt and charged is unchanged. The host functions' compute costs are
 * the VM's (`VMConfig.ext_compute_costs`).
 */
export interface ComputeCosts {
  /** action_deploy_contract's execution compute, and per code byte. */
  readonly deployContractBase: bigint;
  readonly deployContractByte: bigint;
  /** deploy_global_contract_execution_base and _per_byte: what installing a global contract's code on a shard takes. */
  readonly globalContractDistributionBase: bigint;
  readonly globalContractDistributionByte: bigint;
}

/** The protocol version whose parameters DEFAULT_RUNTIME_CONFIG_VIEW holds. */
export const PROTOCOL_VERSION = 86;

export interface RuntimeConfig {
  readonly fees: RuntimeFeesConfig;
  readonly wasm: VMConfig;
  readonly storageAmountPerByte: bigint;
  /** What deploying a global contract burns per code byte (not in the view). */
  readonly globalContractStorageAmountPerByte: bigint;
  readonly registrarAccountId: string;
  readonly minAllowedTopLevelAccountLength: number;
  readonly burntGasReward: readonly [bigint, bigint];
  readonly pessimisticGasPriceInflation: readonly [bigint, bigint];
  /**
   * Gas an ML-DSA-65 signature burns at conversion beyond what a classical one does, per signature
   * (the signer's and each Delegate's); ed25519 and secp256k1 add nothing (PostQuantumSignatures, 85).
   */
  readonly mlDsa65VerificationCost: bigint;
  readonly maxTotalPrepaidGas: bigint;
  readonly maxActionsPerReceipt: number;
  readonly maxTransactionSize: number;
  readonly maxLengthMethodName: number;
  readonly maxArgumentsLength: number;
  readonly maxContractSize: number;
  readonly maxNumberBytesMethodNames: number;
  /** limit_config.max_deploy_actions_per_receipt: 100 where the view predates it (before 84). */
  readonly maxDeployActionsPerReceipt: number;
  readonly congestionControl: CongestionControlConfig;
  /** witness_config.main_storage_proof_size_soft_limit: past it a chunk takes no more receipts. */
  readonly mainStorageProofSizeSoftLimit: number;
  /**
   * witness_config.new_transactions_validation_state_size_soft_limit: once checking a chunk's
   * candidate transactions has recorded more of the state than this, it takes no more of them.
   */
  readonly newTransactionsValidationStateSizeSoftLimit: number;
  /**
   * use_state_stored_receipt (true since protocol 72, not in the view): delayed receipts are stored
   * with the congestion gas and size they were counted with.
   */
  readonly useStateStoredReceipt: boolean;
  readonly compute: ComputeCosts;
  /** Not in the view: parameters.snap's max_shard_bandwidth, max_single_grant and the rest. */
  readonly bandwidthScheduler: BandwidthSchedulerConfig;
  /** Receipts buy their gas at no less than this (NEP-536 / AccountCostIncrease). */
  readonly minGasPurchasePrice: bigint;
  /** What creating an account costs at least, taken from the receipt's price surplus. */
  readonly accountCreationCharge: bigint;
  /** The raw view, served by EXPERIMENTAL_protocol_config. */
  readonly view: object;
}

export function parseRuntimeConfig(view: object): RuntimeConfig {
  const v = view as {
    storage_amount_per_byte: string;
    min_gas_purchase_price?: string;
    account_creation_charge?: string;
    transaction_costs: {
      burnt_gas_reward: [number, number];
      pessimistic_gas_price_inflation_ratio: [number, number];
      ml_dsa_65_verification_cost?: number | string;
    };
    wasm_config: { limit_config: Record<string, number> };
    congestion_control_config: Record<string, number | string>;
    account_creation_config: { registrar_account_id: string; min_allowed_top_level_account_length: number };
    witness_config?: {
      main_storage_proof_size_soft_limit?: number;
      new_transactions_validation_state_size_soft_limit?: number;
    };
  };
  const limits = v.wasm_config.limit_config;
  return {
    fees: parseFeesConfig(v.transaction_costs),
    wasm: parseVMConfig(v.wasm_config),
    storageAmountPerByte: BigInt(v.storage_amount_per_byte),
    globalContractStorageAmountPerByte: GLOBAL_CONTRACT_STORAGE_AMOUNT_PER_BYTE,
    registrarAccountId: v.account_creation_config.registrar_account_id,
    minAllowedTopLevelAccountLength: v.account_creation_config.min_allowed_top_level_account_length,
    burntGasReward: [
      BigInt(v.transaction_costs.burnt_gas_reward[0]),
      BigInt(v.transaction_costs.burnt_gas_reward[1]),
    ],
    pessimisticGasPriceInflation: [
      BigInt(v.transaction_costs.pessimistic_gas_price_inflation_ratio[0]),
      BigInt(v.transaction_costs.pessimistic_gas_price_inflation_ratio[1]),
    ],
    mlDsa65VerificationCost: BigInt(v.transaction_costs.ml_dsa_65_verification_cost ?? 0),
    maxTotalPrepaidGas: BigInt(limits.max_total_prepaid_gas ?? 300_000_000_000_000),
    maxActionsPerReceipt: limits.max_actions_per_receipt ?? 100,
    maxTransactionSize: limits.max_transaction_size ?? 1_572_864,
    maxLengthMethodName: limits.max_length_method_name ?? 256,
    maxArgumentsLength: limits.max_arguments_length ?? 4_194_304,
    maxContractSize: limits.max_contract_size ?? 4_194_304,
    maxNumberBytesMethodNames: limits.max_number_bytes_method_names ?? 2000,
    maxDeployActionsPerReceipt: limits.max_deploy_actions_per_receipt ?? 100,
    congestionControl: parseCongestionControl(v.congestion_control_config),
    mainStorageProofSizeSoftLimit: v.witness_config?.main_storage_proof_size_soft_limit ?? 0xffffffff,
    newTransactionsValidationStateSizeSoftLimit:
      v.witness_config?.new_transactions_validation_state_size_soft_limit ?? 0xffffffff,
    useStateStoredReceipt: true,
    compute: {
      deployContractBase: 20_000_000_000_000n,
      deployContractByte: 250_000_000n,
      globalContractDistributionBase: 20_000_000_000_000n,
      globalContractDistributionByte: 250_000_000n,
    },
    bandwidthScheduler: {
      maxShardBandwidth: 4_500_000,
      maxSingleGrant: 4_194_304,
      maxAllowance: 4_500_000,
      maxBaseBandwidth: 100_000,
    },
    // Both are zero (absent from the view) before protocol 85.
    minGasPurchasePrice: BigInt(v.min_gas_purchase_price ?? '0'),
    accountCreationCharge: BigInt(v.account_creation_charge ?? '0'),
    view,
  };
}

function parseCongestionControl(v: Record<string, number | string>): CongestionControlConfig {
  return {
    maxCongestionIncomingGas: BigInt(v.max_congestion_incoming_gas!),
    maxCongestionOutgoingGas: BigInt(v.max_congestion_outgoing_gas!),
    maxCongestionMemoryConsumption: BigInt(v.max_congestion_memory_consumption!),
    maxCongestionMissedChunks: BigInt(v.max_congestion_missed_chunks!),
    maxTxGas: BigInt(v.max_tx_gas!),
    minTxGas: BigInt(v.min_tx_gas!),
    rejectTxCongestionThreshold: Number(v.reject_tx_congestion_threshold),
    maxOutgoingGas: BigInt(v.max_outgoing_gas!),
    minOutgoingGas: BigInt(v.min_outgoing_gas!),
    allowedShardOutgoingGas: BigInt(v.allowed_shard_outgoing_gas!),
  };
}
