// A chain of the chain package producing with nearcore's runtime at protocol 86, for tests that
// look at what the chain writes rather than at the RPC.
import {
  Chain,
  type ChunkApplier,
  generateKeyFile,
  makeLocalnetGenesis,
  parseGenesis,
  type Signer,
  signerFromKeyFile,
} from '@nearlite/chain';
import {
  type Action,
  encodeSignedTransaction,
  sha256,
  type Transaction,
  toHex,
  transactionHash,
} from '@nearlite/primitives';
import {
  DEFAULT_RUNTIME_CONFIG_VIEW,
  parseRuntimeConfig,
  Runtime,
  VmFunctionCallRunner,
} from '@nearlite/runtime';
import type { Store } from '@nearlite/store';
import { ContractCache } from '@nearlite/vm';

/** A localnet at protocol 86 whose validator is test.near; `raw.records` may take more. */
export function protocol86Localnet(numShards = 1) {
  const key = generateKeyFile('test.near');
  const raw = makeLocalnetGenesis({
    chainId: 'unit',
    numShards,
    epochLength: 100,
    validatorAccountId: 'test.near',
    validatorPublicKey: key.public_key,
    protocolVersion: 86,
  }) as { records: unknown[]; total_supply: string };
  return { key, raw, signer: signerFromKeyFile(key) };
}

/**
 * A chain of `raw` on `store`, producing with nearcore's runtime at protocol 86; with `vm`, function
 * calls run their contracts.
 */
export function openProtocol86Chain(
  raw: object,
  signer: Signer,
  store: Store,
  opts: { vm?: boolean } = {},
): Promise<Chain> {
  const runtime = new Runtime({
    config: parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW),
    chainId: 'unit',
    validators: new Map(),
    ...(opts.vm ? { functionCall: new VmFunctionCallRunner(new ContractCache()) } : {}),
  });
  const applier: ChunkApplier = {
    prepareTransactions: (...a) => runtime.prepareTransactions(...a),
    applyChunk: (ctx, state, txs, incoming) => runtime.applyChunk(ctx, state, txs, incoming),
  };
  return Chain.open({
    store,
    genesis: parseGenesis(raw),
    signer,
    applier,
    storageUsageConfig: { numBytesAccount: 100n, numExtraBytesRecord: 40n },
  });
}

/** Signs a transaction with `signer`'s key and pools it on its signer's shard. */
export function poolTransaction(
  chain: Chain,
  signer: Signer,
  signerId: string,
  receiverId: string,
  nonce: bigint,
  actions: readonly Action[],
): void {
  const tx: Transaction = {
    signerId,
    publicKey: signer.publicKey,
    nonce,
    receiverId,
    blockHash: chain.head().hash,
    actions,
  };
  const bytes = encodeSignedTransaction(tx, signer.sign(transactionHash(tx)));
  chain.pool.add({
    hash: sha256(bytes),
    bytes,
    shardId: chain.layout.accountIdToShardId(signerId),
    accessKeyId: `${signerId}:${toHex(signer.publicKey.data)}`,
    nonce,
  });
}
