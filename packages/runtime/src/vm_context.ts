// The VMContext of a contract call, built in one place for receipts and view calls: both see their
// block's height, timestamp and epoch height (nearcore's ApplyState for the block) and the account as
// it is before the call.
import {
  type Account,
  accountContract,
  type CryptoHash,
  concatBytes,
  type PublicKey,
  publicKeyBytes,
  sha256,
} from '@nearlite/primitives';
import type { PromiseResult, VMContext } from '@nearlite/vm';

/**
 * nearcore's create_random_seed: a call's seed is the hash of its action's hash and the apply's
 * random seed (a block's random value; for a view call, the state root it reads and a zero hash).
 */
export function createRandomSeed(actionHash: CryptoHash, applySeed: Uint8Array): Uint8Array {
  return sha256(concatBytes(actionHash, applySeed));
}

/** What a call sees of the block it runs in. */
export interface BlockContext {
  readonly blockHeight: number;
  readonly blockTimestamp: bigint;
  /** nearcore's epoch_height of the block's epoch (the first epoch after genesis is 1). */
  readonly epochHeight: number;
  /** The chain's id (genesis `chain_id`). */
  readonly chainId: string;
}

export interface CallContext {
  readonly accountId: string;
  readonly signerId: string;
  readonly signerPublicKey: PublicKey;
  readonly predecessorId: string;
  readonly input: Uint8Array;
  readonly promiseResults: readonly PromiseResult[];
  readonly attachedDeposit: bigint;
  readonly prepaidGas: bigint;
  readonly randomSeed: Uint8Array;
  /** Set for view calls: the gas cap, and state-changing host functions fail. */
  readonly viewMaxGasBurnt: bigint | null;
  readonly outputDataReceivers: readonly string[];
  /** The receipt's balance refund receiver (absent for view calls, which cannot ask). */
  readonly refundTo?: string;
}

export function buildVMContext(block: BlockContext, account: Account, call: CallContext): VMContext {
  return {
    current_account_id: call.accountId,
    signer_account_id: call.signerId,
    signer_account_pk: publicKeyBytes(call.signerPublicKey),
    predecessor_account_id: call.predecessorId,
    input: call.input,
    promise_results: call.promiseResults,
    block_height: BigInt(block.blockHeight),
    block_timestamp: block.blockTimestamp,
    epoch_height: BigInt(block.epochHeight),
    chain_id: block.chainId,
    account_balance: account.amount,
    account_locked_balance: account.locked,
    storage_usage: account.storageUsage,
    attached_deposit: call.attachedDeposit,
    prepaid_gas: call.prepaidGas,
    random_seed: call.randomSeed,
    view_config: call.viewMaxGasBurnt === null ? null : { max_gas_burnt: call.viewMaxGasBurnt },
    output_data_receivers: call.outputDataReceivers,
    account_contract: accountContract(account),
    ...(call.refundTo !== undefined ? { refund_to_account_id: call.refundTo } : {}),
  };
}
