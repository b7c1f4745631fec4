// Outgoing receipt buffers against nearcore at protocol 86 (runtime/runtime/src/congestion_control.rs,
// core/primitives/src/congestion_info.rs, core/store/src/trie/receipts_column_helper.rs and
// outgoing_metadata.rs). parameters.snap: max_congestion_incoming_gas 4e17, max_outgoing_gas 3e17,
// min_outgoing_gas 1e15, allowed_shard_outgoing_gas 1e15, max_total_prepaid_gas 1e15. A transfer
// receipt's congestion gas is its execution fees, 108_059_500_000 + 115_123_062_500, and alice.near's
// transfer to bob.near encodes in 151 bytes (congestion_control.test.ts counts them).
import { decodeStoredReceipt, encodeReceipt, toHex } from '@nearlite/primitives';
import { type CongestionInfo, DEFAULT_CONGESTION_INFO, type ShardCongestion } from '@nearlite/runtime';
import {
  trieKeyBufferedReceipt,
  trieKeyBufferedReceiptGroupsQueueData,
  trieKeyBufferedReceiptGroupsQueueItem,
  trieKeyBufferedReceiptIndices,
} from '@nearlite/trie';
import t from 'tap';
import { keyFromSeed, NEAR, signTx, TestChain } from './helpers.js';

const alice = keyFromSeed(1);
const TRANSFER_GAS = 108_059_500_000n + 115_123_062_500n;
const TRANSFER_BYTES = 151n;
const FULL = 400_000_000_000_000_000n;

const u64 = (v: bigint | number) => Buffer.from(new BigUint64Array([BigInt(v)]).buffer).toString('hex');
const u128 = (v: bigint) => u64(v & ((1n << 64n) - 1n)) + u64(v >> 64n);

/** alice on shard 0 sends to bob on shard 1, whose chunk in the block reports `bob`. */
function twoShards(bob: Partial<CongestionInfo>): TestChain {
  const c = new TestChain();
  c.addAccount('alice.near', 10_000n * NEAR, alice);
  const blockCongestion = new Map<number, ShardCongestion>([
    [0, { congestionInfo: { ...DEFAULT_CONGESTION_INFO, allowedShard: 0 }, missedChunksCount: 0 }],
    [1, { congestionInfo: { ...DEFAULT_CONGESTION_INFO, allowedShard: 1, ...bob }, missedChunksCount: 0 }],
  ]);
  c.ctxExtra = {
    shardId: 0,
    shardIds: [0, 1],
    accountShard: (id) => (id === 'bob.near' ? 1 : 0),
    blockCongestion,
  };
  return c;
}

const transfers = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      signTx(alice, 'alice.near', 'bob.near', BigInt(i + 1), [{ type: 'Transfer', deposit: 1n }]).bytes,
  );

const calls = (n: number, gas: bigint) =>
  Array.from(
    { length: n },
    (_, i) =>
      signTx(alice, 'alice.near', 'bob.near', BigInt(i + 1), [
        { type: 'FunctionCall', methodName: 'm', args: new Uint8Array(0), gas, deposit: 0n },
      ]).bytes,
  );

t.test('receipts to a fully congested shard that did not allow this one wait in the buffer', async (t) => {
  const c = twoShards({ delayedReceiptsGas: FULL });
  const { res } = c.block(transfers(3));
  t.equal(res.outgoingReceipts.length, 0, 'nothing goes out: the limit is 0');
  t.same(
    c.congestionInfo,
    {
      delayedReceiptsGas: 0n,
      bufferedReceiptsGas: 3n * TRANSFER_GAS,
      receiptBytes: 3n * TRANSFER_BYTES,
      allowedShard: 0,
    },
    'buffered_receipts_gas and receipt_bytes count them',
  );
  const get = (k: Uint8Array) => c.state.get(toHex(k));
  // BufferedReceiptIndices { shard_buffers: BTreeMap { 1: TrieQueueIndices { 0, 3 } } }.
  t.equal(toHex(get(trieKeyBufferedReceiptIndices())!), `01000000${u64(1)}${u64(0)}${u64(3)}`);
  t.equal(toHex(trieKeyBufferedReceipt(1, 2n)), `0e${u64(1)}${u64(2)}`, 'column 14, shard, index');
  for (let i = 0; i < 3; i++) {
    const stored = decodeStoredReceipt(get(trieKeyBufferedReceipt(1, BigInt(i)))!);
    t.same(stored.metadata, { congestionGas: TRANSFER_GAS, congestionSize: TRANSFER_BYTES });
    t.equal(BigInt(encodeReceipt(stored.receipt).length), TRANSFER_BYTES);
    t.equal(stored.receipt.receiverId, 'bob.near');
  }
  // ReceiptGroupsQueueData::V0 { indices { 0, 1 }, total_size, total_gas, total_receipts_num } and
  // one ReceiptGroup::V0 { size, gas }: three receipts of 151 bytes fit one 100 kB group.
  t.equal(
    toHex(get(trieKeyBufferedReceiptGroupsQueueData(1))!),
    `00${u64(0)}${u64(1)}${u64(453)}${u128(3n * TRANSFER_GAS)}${u64(3)}`,
  );
  t.equal(toHex(trieKeyBufferedReceiptGroupsQueueData(1)), `10${u64(1)}`, 'column 16, shard');
  t.equal(
    toHex(get(trieKeyBufferedReceiptGroupsQueueItem(1, 0n))!),
    `00${u64(453)}${u128(3n * TRANSFER_GAS)}`,
  );
  t.equal(toHex(trieKeyBufferedReceiptGroupsQueueItem(1, 0n)), `11${u64(1)}${u64(0)}`, 'column 17');

  // The receiver recovers: the buffered receipts go out first, in order, before new ones.
  const buffered = [0, 1, 2].map((i) => decodeStoredReceipt(get(trieKeyBufferedReceipt(1, BigInt(i)))!));
  c.ctxExtra = {
    ...c.ctxExtra,
    blockCongestion: new Map([
      [0, { congestionInfo: DEFAULT_CONGESTION_INFO, missedChunksCount: 0 }],
      [1, { congestionInfo: { ...DEFAULT_CONGESTION_INFO, allowedShard: 1 }, missedChunksCount: 0 }],
    ]),
  };
  const { res: next, outcomes } = c.block([
    signTx(alice, 'alice.near', 'bob.near', 4n, [{ type: 'Transfer', deposit: 1n }]).bytes,
  ]);
  t.same(
    next.outgoingReceipts.map((r) => toHex(r.receiptId)),
    [...buffered.map((b) => toHex(b.receipt.receiptId)), toHex(outcomes[0]!.receiptIds[0]!)],
    'the three buffered, then the new one',
  );
  t.same(next.outgoingReceipts[0]!.bytes, encodeReceipt(buffered[0]!.receipt), 'sent as a plain receipt');
  t.same(c.congestionInfo, { ...DEFAULT_CONGESTION_INFO, allowedShard: 1 }, 'nothing buffered');
  t.equal(toHex(get(trieKeyBufferedReceipt(1, 0n)) ?? new Uint8Array(0)), '', 'the receipts are gone');
  // The indices and the groups' data stay, empty, as nearcore leaves them.
  t.equal(toHex(get(trieKeyBufferedReceiptIndices())!), `01000000${u64(1)}${u64(3)}${u64(3)}`);
  t.equal(
    toHex(get(trieKeyBufferedReceiptGroupsQueueData(1))!),
    `00${u64(1)}${u64(1)}${u64(0)}${u128(0n)}${u64(0)}`,
  );
  t.equal(get(trieKeyBufferedReceiptGroupsQueueItem(1, 0n)), undefined);
});

t.test('outgoing_gas_limit: the allowed shard sends a fully congested one 1 Pgas', async (t) => {
  // Calls of 300 Tgas each: 1 Pgas lets three out; the fourth and fifth wait.
  const c = twoShards({ delayedReceiptsGas: FULL, allowedShard: 0 });
  const { res } = c.block(calls(5, 300_000_000_000_000n));
  t.equal(res.outgoingReceipts.length, 3);
  const gas = 108_059_500_000n + 780_000_000_000n + 2_235_934n + 300_000_000_000_000n;
  t.equal(c.congestionInfo!.bufferedReceiptsGas, 2n * gas);
  // Below full congestion the limit mixes max_outgoing_gas and min_outgoing_gas: at 0.5, 150.5 Pgas.
  const half = twoShards({ delayedReceiptsGas: FULL / 2n });
  t.equal(half.block(calls(5, 300_000_000_000_000n)).res.outgoingReceipts.length, 5);
});

t.test(
  'since protocol 85 a receipt is admitted by at most allowed_shard_outgoing_gas of its gas',
  async (t) => {
    // Calls of 1 Pgas weigh more than the allowed shard's 1 Pgas: the first still goes (its admission
    // gas is clamped to 1 Pgas) and takes all of the limit; the second waits.
    const c = twoShards({ delayedReceiptsGas: FULL, allowedShard: 0 });
    const { res } = c.block(calls(2, 1_000_000_000_000_000n));
    t.equal(res.outgoingReceipts.length, 1);
    t.ok(c.congestionInfo!.bufferedReceiptsGas > 1_000_000_000_000_000n, 'the second is buffered');
  },
);

t.test('receipts for the own shard have no gas limit', async (t) => {
  const c = twoShards({ delayedReceiptsGas: FULL });
  c.ctxExtra = { ...c.ctxExtra, accountShard: () => 0 };
  c.ctxExtra = {
    ...c.ctxExtra,
    blockCongestion: new Map([
      [
        0,
        {
          congestionInfo: { ...DEFAULT_CONGESTION_INFO, delayedReceiptsGas: FULL, allowedShard: 1 },
          missedChunksCount: 0,
        },
      ],
    ]),
  };
  const { res } = c.block(transfers(3));
  t.equal(res.outgoingReceipts.length, 3);
  t.equal(c.congestionInfo!.bufferedReceiptsGas, 0n);
});
