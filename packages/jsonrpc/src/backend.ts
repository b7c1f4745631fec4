// The narrow interface the RPC layer needs from the chain. The node's composition root implements it
// over @nearlite/chain; tests may implement it in memory. Every method returns a nearcore-shaped view
// (snake_case keys, u128 as decimal strings, u64 above 2^53 as bigint) ready for `stringifyJson`, and
// signals domain errors by throwing `HandlerError` (from @nearlite/primitives) with nearcore's cause name.
import type {
  BlockId,
  BlockReference,
  ChangesRequest,
  CryptoHash,
  TxExecutionStatus,
} from '@nearlite/primitives';

export type {
  BlockId,
  BlockReference,
  ChangesRequest,
  Finality,
  TxExecutionStatus,
} from '@nearlite/primitives';

export type QueryRequest =
  | { readonly requestType: 'view_account'; readonly accountId: string }
  | { readonly requestType: 'view_code'; readonly accountId: string }
  | { readonly requestType: 'view_global_contract_code'; readonly codeHash: CryptoHash }
  | { readonly requestType: 'view_global_contract_code_by_account_id'; readonly accountId: string }
  | {
      readonly requestType: 'view_state';
      readonly accountId: string;
      readonly prefix: Uint8Array;
      readonly includeProof: boolean;
      /** A page (newer nodes): the keys after this one, at most `limit` of them; null for all. */
      readonly page?: ViewStatePage;
    }
  | { readonly requestType: 'view_access_key'; readonly accountId: string; readonly publicKey: string }
  | { readonly requestType: 'view_access_key_list'; readonly accountId: string }
  | { readonly requestType: 'view_gas_key_nonces'; readonly accountId: string; readonly publicKey: string }
  | {
      readonly requestType: 'call_function';
      readonly accountId: string;
      readonly methodName: string;
      readonly args: Uint8Array;
    };

export interface ViewStatePage {
  readonly afterKey: Uint8Array | null;
  readonly limit: number | null;
}

export type TxStatusQuery =
  | { readonly txHash: CryptoHash; readonly senderAccountId: string }
  | { readonly signedTx: Uint8Array };

export type EpochReference = { readonly blockId: BlockId } | { readonly epochId: CryptoHash } | null;

export type ChunkReference =
  | { readonly chunkId: CryptoHash }
  /** A shard id above 2^53 is a bigint: it names no shard, and its error names it exactly. */
  | { readonly blockId: BlockId; readonly shardId: number | bigint };

export type LightClientProofRequest =
  | { readonly type: 'transaction'; readonly transactionHash: CryptoHash; readonly senderId: string }
  | { readonly type: 'receipt'; readonly receiptId: CryptoHash; readonly receiverId: string };

/** A JSON-ready view object. */
export type View = object;

/** EXPERIMENTAL_receipt_to_tx's params: the receipt, and optionally where to look for it. */
export interface ReceiptToTxQuery {
  readonly receiptId: CryptoHash;
  readonly blockHeight?: number;
  readonly shardId?: number;
  /** A bigint only above 2^53, as a request may ask (it is then too large). */
  readonly window?: number | bigint;
}

export interface RpcBackend {
  /** Height of the current head, for nearcore's 422-on-UNKNOWN_BLOCK rule. */
  headHeight(): number;

  block(ref: BlockReference): View | Promise<View>;
  chunk(id: ChunkReference): View | Promise<View>;
  /**
   * `query` result including `block_height`/`block_hash`. UNKNOWN_ACCESS_KEY (info `public_key`,
   * `block_height`, `block_hash`) and CONTRACT_EXECUTION_ERROR (info `vm_error` = nearcore's
   * primitives FunctionCallError as JSON, `block_height`, `block_hash`; data = "wasm execution failed
   * with error: " and the Rust Debug text of the VM's error) are thrown as HandlerError; `query` turns
   * them into nearcore's legacy result forms, the EXPERIMENTAL_ view methods answer them as errors.
   */
  query(ref: BlockReference, request: QueryRequest): View | Promise<View>;
  changes(ref: BlockReference, request: ChangesRequest): View | Promise<View>;
  changesInBlock(ref: BlockReference): View | Promise<View>;

  status(): View | Promise<View>;
  /** Throws HandlerError('NO_NEW_BLOCKS' | 'NODE_IS_SYNCING') when unhealthy. */
  health(): void;
  networkInfo(): View;
  validators(ref: EpochReference): View | Promise<View>;
  gasPrice(blockId: BlockId | null): View | Promise<View>;
  genesisConfig(): View;
  protocolConfig(ref: BlockReference): View | Promise<View>;

  /**
   * Transaction bytes arrive base64-decoded but not borsh-decoded: a backend that cannot decode them
   * throws `RpcParseError` (from this package) with the decoder's message, and the method words it
   * as nearcore does for the params form used. Same for `broadcastTxAsync` and `txStatus`.
   */
  sendTx(signedTx: Uint8Array, waitUntil: TxExecutionStatus): Promise<View>;
  /** `broadcast_tx_async`: validates and queues, returns the base58 transaction hash. */
  broadcastTxAsync(signedTx: Uint8Array): string | Promise<string>;
  txStatus(query: TxStatusQuery, waitUntil: TxExecutionStatus, withReceipts: boolean): Promise<View>;
  receipt(receiptId: CryptoHash): View | Promise<View>;
  /** `{transaction_hash, sender_account_id}` of the transaction a receipt descends from. */
  receiptToTx(request: ReceiptToTxQuery): View | Promise<View>;

  lightClientProof(request: LightClientProofRequest, lightClientHead: CryptoHash): View;
  nextLightClientBlock(lastBlockHash: CryptoHash): View | null;
  /** `{block_header_lite, block_proof}`: `blockHash` under the head's block merkle root. */
  lightClientBlockProof(blockHash: CryptoHash, lightClientHead: CryptoHash): View;

  /** The block producers of the epoch of `blockId` (the head's when null), each once, in order. */
  validatorsOrdered(blockId: BlockId | null): View | Promise<View>;
  /** `{congestion_level}` of the chunk's shard, as the chunk's congestion info puts it. */
  congestionLevel(id: ChunkReference): View | Promise<View>;
  /** `[{start, end}]`: the heights left in the head's epoch where the account produces nothing. */
  maintenanceWindows(accountId: string): View | Promise<View>;
  /** `{head_height, final_head_height, cold_head_height, hot_db_kind}`. */
  splitStorageInfo(): View | Promise<View>;
  /** The node's configuration in nearcore's ClientConfig shape. */
  clientConfig(): View;

  /** Records arrive as raw JSON; a malformed one is reported by throwing `RpcParseError`. */
  /**
   * Present only on a node that runs as a sandbox: nearcore offers the sandbox methods only in its
   * sandbox build, and anywhere else they would let any caller rewrite state. Absent, both methods
   * answer METHOD_NOT_FOUND, as nearcore's regular build does.
   */
  sandboxPatchState?(records: readonly unknown[]): Promise<View>;
  /** A delta above what the node takes in one call is reported by throwing `RpcParseError`. */
  sandboxFastForward?(deltaHeight: number | bigint): Promise<View>;
}
