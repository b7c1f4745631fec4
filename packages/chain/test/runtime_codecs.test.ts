// The transaction codecs decode a send_tx's bytes once for admission, verification and the answer,
// and never serve one transaction's decode for other bytes.
import { type ChainHandle, runtimeTxCodecs } from '@nearlite/chain';
import { encodeSignedTransaction, KeyType, type Transaction } from '@nearlite/primitives';
import type { RuntimeConfig } from '@nearlite/runtime';
import t from 'tap';

const tx: Transaction = {
  signerId: 'alice.test.near',
  publicKey: { keyType: KeyType.ED25519, data: new Uint8Array(32).fill(1) },
  nonce: 7n,
  receiverId: 'bob.test.near',
  blockHash: new Uint8Array(32).fill(2),
  actions: [{ type: 'Transfer', deposit: 10n ** 24n }],
};
const signature = { keyType: KeyType.ED25519, data: new Uint8Array(64).fill(3) };

// Decoding and views touch neither the chain nor the runtime's config.
const codecs = () => runtimeTxCodecs({} as ChainHandle, {} as RuntimeConfig);

t.test('the same bytes are decoded once; a copy of them on its own', async (t) => {
  const c = codecs();
  const bytes = encodeSignedTransaction(tx, signature);
  const first = c.decodeTransaction(bytes);
  const again = c.decodeTransaction(bytes);
  t.equal(again.hash, first.hash, 'the same decode: the very hash it computed');
  t.equal(first.signerId, 'alice.test.near');
  const copy = bytes.slice();
  const other = c.decodeTransaction(copy);
  t.not(other.hash, first.hash, 'other bytes are decoded for themselves');
  t.same(other.hash, first.hash, 'to the same transaction');
  t.same(c.transactionView(bytes), c.transactionView(copy), 'views agree');
});

t.test('bytes that do not decode fail every time', async (t) => {
  const c = codecs();
  const bad = Uint8Array.of(1, 2, 3);
  t.throws(() => c.decodeTransaction(bad));
  t.throws(() => c.decodeTransaction(bad), 'nothing was kept for them');
  t.throws(() => c.transactionView(bad));
});

t.test(
  "admission refuses a transaction to a congested shard with nearcore's validate_tx error",
  async (t) => {
    // chain/chain/src/runtime/mod.rs validate_tx: ShardCongested from reject_tx_congestion_threshold
    // 0.8 (parameters.snap), here 0.8 of max_congestion_incoming_gas 4e17 in delayed receipts.
    const { DEFAULT_RUNTIME_CONFIG_VIEW, parseRuntimeConfig } = await import('@nearlite/runtime');
    const chain = { layout: { accountIdToShardId: () => 2 } } as unknown as ChainHandle;
    const c = runtimeTxCodecs(chain, parseRuntimeConfig(DEFAULT_RUNTIME_CONFIG_VIEW));
    const info = (delayed: bigint) => ({
      delayedReceiptsGas: delayed,
      bufferedReceiptsGas: 0n,
      receiptBytes: 0n,
      allowedShard: 0,
    });
    const ctx = { gasPrice: 1n, blockHeight: 2, shardId: 0 };
    const bytes = encodeSignedTransaction(tx, signature);
    t.same(c.verify(bytes, { ...ctx, congestion: new Map([[2, info(320_000_000_000_000_000n)]]) }), {
      ShardCongested: { shard_id: 2, congestion_level: 0.8 },
    });
    t.same(c.verify(bytes, { ...ctx, congestion: new Map([[2, info(400_000_000_000_000_000n)]]) }), {
      ShardCongested: { shard_id: 2, congestion_level: 1 },
    });
  },
);
