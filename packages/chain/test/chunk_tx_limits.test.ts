// A chain with nearcore's runtime at protocol 86 under a burst of transfers. prepare_transactions
// (chain/chain/src/runtime/mod.rs) stops once the gas burnt converting transactions reaches the
// chunk's transaction gas limit, process_tx_limit = max_tx_gas 500 Tgas when uncongested
// (parameters.snap), checked before each transaction, so the one crossing it is in: a transfer
// burns action_receipt_creation + action_transfer send fees, 108_059_500_000 + 115_123_062_500 =
// 223_182_562_500 gas, and 2241 transfers are the first to reach 500 Tgas. The rest wait for the
// next chunk. The chunk then runs its local receipts (signer = receiver) while under the 1 Pgas
// chunk gas limit; the one left is delayed, and the next chunk header's congestion info reports it
// (runtime lib.rs apply: delayed receipts' congestion gas and borsh bytes).
import {
  Chain,
  type ChunkApplier,
  generateKeyFile,
  makeLocalnetGenesis,
  parseGenesis,
  signerFromKeyFile,
} from '@nearlite/chain';
import {
  encodeSignedTransaction,
  sha256,
  type Transaction,
  toHex,
  transactionHash,
} from '@nearlite/primitives';
import { DEFAULT_RUNTIME_CONFIG_VIEW, parseRuntimeConfig, Runtime } from '@nearlite/runtime';
import { Store } from '@nearlite/store';
import t from 'tap';

const TRANSFER_GAS = 223_182_562_500n;

t.test('a chunk takes transactions up to its gas limit and reports its delayed receipts', async (t) => {
  const key = generateKeyFile('test.near');
  const signer = signerFromKeyFile(key);
  const genesis = parseGenesis(
    makeLocalnetGenesis({
      chainId: 'unit',
      numShards: 1,
      epochLength: 100,
      validatorAccountId: 'test.near',
      validatorPublicKey: key.public_key,
      protocolVersion: 86,
    }),
  );
  const runtime = new Runtime({
    config: parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW),
    chainId: 'unit',
    validators: new Map(),
  });
  const applier: ChunkApplier = {
    prepareTransactions: (...a) => runtime.prepareTransactions(...a),
    applyChunk: (ctx, state, txs, incoming) => runtime.applyChunk(ctx, state, txs, incoming),
  };
  const store = await Store.memory();
  const chain = await Chain.open({
    store,
    genesis,
    signer,
    applier,
    storageUsageConfig: { numBytesAccount: 100n, numExtraBytesRecord: 40n },
  });
  const blockHash = chain.head().hash;
  const N = 2300;
  for (let nonce = 1; nonce <= N; nonce++) {
    const tx: Transaction = {
      signerId: 'test.near',
      publicKey: signer.publicKey,
      nonce: BigInt(nonce),
      receiverId: 'test.near',
      blockHash,
      actions: [{ type: 'Transfer', deposit: 1n }],
    };
    const bytes = encodeSignedTransaction(tx, signer.sign(transactionHash(tx)));
    chain.pool.add({
      hash: sha256(bytes),
      bytes,
      shardId: 0,
      accessKeyId: `test.near:${toHex(signer.publicKey.data)}`,
      nonce: BigInt(nonce),
    });
  }
  const chunkOf = (hash: Uint8Array) => {
    const [header] = chain.chainStore.blockChunkHeaders(hash)!;
    return { header: header!, chunk: chain.chainStore.chunk(header!.chunkHash)! };
  };

  const first = chunkOf((await chain.produceBlock()).hash);
  t.equal(first.chunk.transactions.length, 2241, 'up to the transfer that reaches 500 Tgas');
  t.equal(chain.pool.size, N - 2241, 'the rest wait in the pool');

  const second = chunkOf((await chain.produceBlock()).hash);
  t.equal(second.chunk.transactions.length, N - 2241, 'and go into the next chunk');
  // The first chunk burnt 2241 conversions, then ran local receipts until 1 Pgas was reached:
  // after 2239 it is under, the 2240th crosses, the 2241st is delayed.
  t.ok(2241n * TRANSFER_GAS + 2239n * TRANSFER_GAS < 10n ** 15n);
  t.ok(2241n * TRANSFER_GAS + 2240n * TRANSFER_GAS >= 10n ** 15n);
  t.same(second.header.inner.congestionInfo, {
    delayedReceiptsGas: TRANSFER_GAS,
    bufferedReceiptsGas: 0n,
    // ReceiptV0: three ids of 4+9 bytes, receipt id 32, tag 1, ed25519 key 33, gas price 16, two
    // empty vecs 8, one Transfer 4+1+16.
    receiptBytes: 150n,
    // One shard: all_shards[(height + 0) % 1].
    allowedShard: 0,
  });
  t.same(first.header.inner.congestionInfo.delayedReceiptsGas, 0n, 'the genesis chunk delayed nothing');
});
