// `query call_function`: a read-only run of a contract method at some block's state. State-changing
// host functions fail with ProhibitedInView; gas is capped by the view limit.
import { type Account, HandlerError, type PublicKey, rustDebug } from '@nearlite/primitives';
import { TrieUpdate } from '@nearlite/trie';
import { type ContractCache, runFunction } from '@nearlite/vm';
import { networkViewVMConfig } from './config/network_view_config.js';
import type { RuntimeConfig } from './config/runtime_config.js';
import { resolveContract } from './global_contracts.js';
import { RuntimeExt } from './receipt_builder.js';
import { type BlockContext, buildVMContext, createRandomSeed } from './vm_context.js';
import { functionCallErrorView } from './vm_error.js';

export interface ViewCallInput extends BlockContext {
  readonly config: RuntimeConfig;
  readonly state: { get(key: Uint8Array): Uint8Array | undefined };
  readonly accountId: string;
  readonly account: Account;
  readonly methodName: string;
  readonly args: Uint8Array;
  readonly blockHash: string;
  readonly validators: ReadonlyMap<string, bigint>;
  readonly maxGasBurnt?: bigint;
  readonly cache?: ContractCache;
  /** Told the gas the call burnt, whether it returned or failed (for per-client gas limits). */
  readonly meter?: { burnt: bigint };
  /**
   * The protocol version of the block read, where that block did not run this node's parameters
   * (one of NEAR's own networks): the call runs under the VM config nearcore runs it under there
   * (network_view_config.ts). Absent: `config`'s.
   */
  readonly blockProtocolVersion?: number;
  /** The state root the call's random seed is made from (QueryAt.stateRoot in the chain package). */
  readonly stateRoot: Uint8Array;
}

const NO_KEY: PublicKey = { keyType: 0, data: new Uint8Array(32) };
/** A view call runs no action: nearcore's TrieViewer passes CryptoHash::default() as its hash. */
const NO_ACTION_HASH = new Uint8Array(32);

export function viewCall(i: ViewCallInput): {
  result: number[];
  logs: string[];
  block_height: number;
  block_hash: string;
} {
  const state = new TrieUpdate(i.state);
  const ext = new RuntimeExt(state, i.accountId, NO_ACTION_HASH, i.blockHeight, i.validators);
  const maxGas = i.maxGasBurnt ?? i.config.wasm.limit_config.max_gas_burnt;
  const contract = resolveContract(state, i.accountId, i.account);
  const outcome = runFunction({
    code: contract.code,
    codeHash: contract.hash,
    methodName: i.methodName,
    context: buildVMContext(i, i.account, {
      accountId: i.accountId,
      signerId: i.accountId,
      signerPublicKey: NO_KEY,
      predecessorId: i.accountId,
      input: i.args,
      promiseResults: [],
      attachedDeposit: 0n,
      prepaidGas: maxGas,
      randomSeed: createRandomSeed(NO_ACTION_HASH, i.stateRoot),
      viewMaxGasBurnt: maxGas,
      outputDataReceivers: [],
    }),
    config:
      i.blockProtocolVersion === undefined
        ? i.config.wasm
        : networkViewVMConfig(i.config.wasm, i.blockProtocolVersion),
    fees: i.config.fees,
    external: ext,
    ...(i.cache ? { cache: i.cache } : {}),
  });
  if (i.meter) i.meter.burnt = outcome.burnt_gas;
  if (outcome.aborted) {
    // The info is what EXPERIMENTAL_call_function answers (nearcore's primitives FunctionCallError);
    // the text is query's legacy error string, from the VM's own error.
    throw new HandlerError(
      'CONTRACT_EXECUTION_ERROR',
      {
        vm_error: functionCallErrorView(outcome.aborted),
        block_height: i.blockHeight,
        block_hash: i.blockHash,
      },
      `wasm execution failed with error: ${rustDebug(outcome.aborted)}`,
    );
  }
  const data = outcome.return_data.kind === 'Value' ? outcome.return_data.data : new Uint8Array(0);
  return { result: [...data], logs: outcome.logs, block_height: i.blockHeight, block_hash: i.blockHash };
}
