// Congestion control against nearcore at protocol 86. Parameters from
// core/parameters/res/runtime_configs/parameters.snap: max_tx_gas 500 Tgas, min_tx_gas 20 Tgas,
// reject_tx_congestion_threshold 0.8, max_congestion_incoming_gas 4e17, memory 1e9 bytes;
// action_receipt_creation send_not_sir 108_059_500_000 and action_transfer send_not_sir
// 115_123_062_500, so a transfer to another account burns 223_182_562_500 gas converting.
// prepare_transactions (chain/chain/src/runtime/mod.rs) checks `total_gas_burnt >=
// transactions_gas_limit` before taking each transaction, so the one that crosses the limit is in.
import { decodeStoredReceipt, encodeReceipt, encodeStateStoredReceipt, toHex } from '@nearlite/primitives';
import {
  clampedF64Fraction,
  DEFAULT_CONGESTION_INFO,
  finalizeAllowedShard,
  mix,
  processTxLimit,
  receiptCongestionGas,
  shardRejectsTransactions,
} from '@nearlite/runtime';
import { legacyTrieKeyDelayedReceipt, TrieUpdate, trieKeyDelayedReceipt } from '@nearlite/trie';
import t from 'tap';
import { config, GAS_PRICE, keyFromSeed, NEAR, signTx, TestChain } from './helpers.js';

const cc = config.congestionControl;
const alice = keyFromSeed(1);
const TRANSFER_GAS = 108_059_500_000n + 115_123_062_500n;
const info = (delayed: bigint, bytes = 0n) => ({
  ...DEFAULT_CONGESTION_INFO,
  delayedReceiptsGas: delayed,
  receiptBytes: bytes,
});

t.test("mix and clamped_f64_fraction as nearcore's own tests give them", async (t) => {
  t.equal(mix(0n, 1000n, 0.5), 500n);
  t.equal(mix(0n, 0n, 0.3), 0n);
  t.equal(mix(1000n, 1000n, 0.1), 1000n);
  t.equal(mix(50n, 80n, 0.33), 60n);
  t.equal(clampedF64Fraction(5n, 10n), 0.5);
  t.equal(clampedF64Fraction(11n, 10n), 1);
});

t.test('process_tx_limit mixes max_tx_gas and min_tx_gas by incoming congestion only', async (t) => {
  t.equal(processTxLimit(DEFAULT_CONGESTION_INFO, cc), 500_000_000_000_000n, 'uncongested: max_tx_gas');
  t.equal(processTxLimit(info(400_000_000_000_000_000n), cc), 20_000_000_000_000n, 'full: min_tx_gas');
  t.equal(processTxLimit(info(200_000_000_000_000_000n), cc), 260_000_000_000_000n, 'half way');
  t.equal(processTxLimit(info(0n, 1_000_000_000n), cc), 500_000_000_000_000n, 'memory does not lower it');
});

t.test('shard_accepts_transactions: refused from 0.8, with the InvalidTxError of validate_tx', async (t) => {
  t.equal(shardRejectsTransactions(info(10n ** 16n * 4n), 0, cc, 0), null, '0.1 congested');
  t.same(shardRejectsTransactions(info(320_000_000_000_000_000n), 0, cc, 3), {
    ShardCongested: { shard_id: 3, congestion_level: 0.8 },
  });
  t.same(shardRejectsTransactions(info(0n, 800_000_000n), 0, cc, 0), {
    ShardCongested: { shard_id: 0, congestion_level: 0.8 },
  });
  t.same(shardRejectsTransactions(DEFAULT_CONGESTION_INFO, 125, cc, 1), {
    ShardStuck: { shard_id: 1, missed_chunks: 125 },
  });
  t.equal(
    shardRejectsTransactions(DEFAULT_CONGESTION_INFO, 1, cc, 1),
    null,
    'one missed chunk counts as none',
  );
});

t.test('finalize_allowed_shard: all_shards[(height + shard index) % n]', async (t) => {
  // nearcore's test_missed_chunks_finalize seeds 3 over shards 0..4.
  t.equal(finalizeAllowedShard(2, [0, 1, 2, 3, 4], 3), 3);
  t.equal(finalizeAllowedShard(0, [0], 1234), 0);
  t.equal(finalizeAllowedShard(7, [], 5), 7);
});

t.test('congestion gas of a receipt: prepaid exec gas plus attached gas', async (t) => {
  const receipt = (actions: Parameters<typeof signTx>[4]) => ({
    predecessorId: 'alice.near',
    receiverId: 'bob.near',
    receiptId: new Uint8Array(32),
    receipt: {
      kind: 'Action' as const,
      signerId: 'alice.near',
      signerPublicKey: alice.publicKey,
      gasPrice: GAS_PRICE,
      outputDataReceivers: [],
      inputDataIds: [],
      actions,
    },
  });
  t.equal(receiptCongestionGas(receipt([{ type: 'Transfer', deposit: 1n }]), config), TRANSFER_GAS);
  const call = {
    type: 'FunctionCall' as const,
    methodName: 'm',
    args: new Uint8Array(0),
    gas: 10n ** 13n,
    deposit: 0n,
  };
  // parameters.snap: action_function_call execution 780_000_000_000, per byte 2_235_934 ("m", no args).
  t.equal(
    receiptCongestionGas(receipt([call]), config),
    108_059_500_000n + 780_000_000_000n + 2_235_934n + 10n ** 13n,
  );
});

function candidates(n: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 1; i <= n; i++)
    out.push(signTx(alice, 'alice.near', 'bob.near', BigInt(i), [{ type: 'Transfer', deposit: 1n }]).bytes);
  return out;
}

function prepare(txs: Uint8Array[], shards: Map<number, ReturnType<typeof info>>) {
  const c = new TestChain();
  c.addAccount('alice.near', 1000n * NEAR, alice);
  const state = new TrieUpdate({ get: (k: Uint8Array) => c.state.get(Buffer.from(k).toString('hex')) });
  return c.runtime.prepareTransactions(state, txs, GAS_PRICE, 2, undefined, {
    congestion: { shardId: 0, shards, accountShard: () => 0 },
  });
}

t.test('prepare_transactions stops once the gas burnt reaches the chunk transaction gas limit', async (t) => {
  // 2240 transfers burn 499.93 Tgas, under 500; the 2241st crosses and is still taken.
  t.ok(2240n * TRANSFER_GAS < 500_000_000_000_000n && 2241n * TRANSFER_GAS >= 500_000_000_000_000n);
  const txs = candidates(2300);
  const r = prepare(txs, new Map([[0, DEFAULT_CONGESTION_INFO]]));
  t.equal(r.accepted.length, 2241);
  t.equal(r.rejected.length, 0);
  t.same(
    r.untaken,
    Array.from({ length: 59 }, (_, i) => 2241 + i),
    'the rest wait, in order',
  );

  // Half congested: 260 Tgas, 1165 transfers (1164 burn 259.78 Tgas).
  const half = prepare(txs.slice(0, 1200), new Map([[0, info(200_000_000_000_000_000n)]]));
  t.equal(half.accepted.length, 1165);
  t.equal(half.untaken.length, 35);
});

t.test(
  "transactions to a shard congested past the threshold are dropped with nearcore's error",
  async (t) => {
    const r = prepare(candidates(3), new Map([[0, info(320_000_000_000_000_000n)]]));
    t.same(r.accepted, []);
    t.same(
      r.rejected.map((x) => x.error),
      Array(3).fill({ ShardCongested: { shard_id: 0, congestion_level: 0.8 } }),
    );
  },
);

t.test("a chunk's congestion info follows its delayed receipts (runtime lib.rs apply)", async (t) => {
  const c = new TestChain();
  c.addAccount('alice.near', 1000n * NEAR, alice);
  c.addAccount('bob.near', NEAR);
  c.block(candidates(3));
  t.same(c.congestionInfo, DEFAULT_CONGESTION_INFO, 'nothing delayed');
  // One receipt runs, and the gas limit is reached: the other two wait in the delayed queue.
  c.gasLimit = 1n;
  c.block();
  // Each counts its congestion gas (action_receipt_creation + action_transfer execution, 223.18
  // Ggas) and the borsh size of the ReceiptV0: predecessor 4+10, receiver 4+8, id 32, tag 1,
  // signer 4+10, ed25519 key 33, gas price 16, two empty vecs 8, one Transfer 4+1+16 = 151.
  t.same(c.congestionInfo, {
    delayedReceiptsGas: 2n * TRANSFER_GAS,
    bufferedReceiptsGas: 0n,
    receiptBytes: 2n * 151n,
    allowedShard: 0,
  });
  // With no congestion info before it (a store from before it was kept), the chunk counts the queue
  // as nearcore's bootstrap_congestion_info does, then runs one of the two (no incoming receipts).
  c.congestionInfo = undefined;
  c.pending = [];
  c.block();
  t.same(c.congestionInfo, {
    delayedReceiptsGas: TRANSFER_GAS,
    bufferedReceiptsGas: 0n,
    receiptBytes: 151n,
    allowedShard: 0,
  });
  c.gasLimit = 1_000_000_000_000_000n;
  c.block();
  t.same(c.congestionInfo, DEFAULT_CONGESTION_INFO, 'the queue ran empty');
});

/** alice's three transfers to bob converted, then a chunk with a gas limit of 1: one ran, two wait. */
function twoDelayed(): TestChain {
  const c = new TestChain();
  c.addAccount('alice.near', 1000n * NEAR, alice);
  c.addAccount('bob.near', NEAR);
  c.block(candidates(3));
  c.gasLimit = 1n;
  c.block();
  return c;
}

t.test(
  'delayed receipts are stored as StateStoredReceipts, and their metadata is what leaves the counts',
  async (t) => {
    const c = twoDelayed();
    const key = (i: bigint) => toHex(trieKeyDelayedReceipt(i));
    const raw = [c.state.get(key(0n))!, c.state.get(key(1n))!];
    for (const bytes of raw) {
      // use_state_stored_receipt (true since protocol 72): the tags, V1, the 151-byte ReceiptV0, then
      // the congestion gas and size it was counted with.
      t.same([...bytes.subarray(0, 3)], [255, 255, 1]);
      t.equal(bytes.length, 3 + 151 + 16);
      const tail = Buffer.from(bytes.subarray(bytes.length - 16));
      t.equal(tail.readBigUInt64LE(0), TRANSFER_GAS);
      t.equal(tail.readBigUInt64LE(8), 151n);
    }
    // A store from before it keeps plain receipts: nearcore computes their gas and size; a stored
    // one's come from its metadata (receipt_congestion_gas, receipt_size), even where they differ.
    const first = decodeStoredReceipt(raw[0]!).receipt;
    const second = decodeStoredReceipt(raw[1]!).receipt;
    c.state.set(key(0n), encodeReceipt(first));
    c.state.set(key(1n), encodeStateStoredReceipt(second, { congestionGas: 1000n, congestionSize: 77n }));
    c.congestionInfo = undefined;
    c.pending = [];
    c.block();
    t.same(
      c.congestionInfo,
      { delayedReceiptsGas: 1000n, bufferedReceiptsGas: 0n, receiptBytes: 77n, allowedShard: 0 },
      'counted from both forms, less the plain one that ran',
    );
    c.gasLimit = 1_000_000_000_000_000n;
    const { outcomes } = c.block();
    t.ok(
      outcomes.some((o) => toHex(o.id) === toHex(second.receiptId)),
      'the stored one runs',
    );
    t.same(c.congestionInfo, DEFAULT_CONGESTION_INFO, 'taking it out removes its metadata exactly');
    t.equal(c.account('bob.near')!.amount, NEAR + 3n, 'all three transfers landed');
  },
);

t.test('a delayed queue that earlier versions kept under the byte 8 is taken out from there', async (t) => {
  const c = twoDelayed();
  // nearcore's key is 07 ‖ u64 LE index (col::DELAYED_RECEIPT_OR_INDICES); move the two receipts to
  // where earlier versions wrote them, as plain receipts.
  for (const i of [0n, 1n]) {
    const key = toHex(trieKeyDelayedReceipt(i));
    t.equal(key, `07${i === 0n ? '00' : '01'}${'00'.repeat(7)}`);
    const { receipt } = decodeStoredReceipt(c.state.get(key)!);
    c.state.delete(key);
    c.state.set(toHex(legacyTrieKeyDelayedReceipt(i)), encodeReceipt(receipt));
  }
  c.congestionInfo = undefined;
  c.pending = [];
  c.block();
  t.same(
    c.congestionInfo,
    { delayedReceiptsGas: TRANSFER_GAS, bufferedReceiptsGas: 0n, receiptBytes: 151n, allowedShard: 0 },
    'both counted from the old keys, one ran',
  );
  t.notOk(c.state.has(toHex(legacyTrieKeyDelayedReceipt(0n))), 'the one taken out is gone from its old key');
  c.gasLimit = 1_000_000_000_000_000n;
  c.settle();
  t.same(
    [...c.state.keys()].filter((k) => k.startsWith('07') || k.startsWith('08')),
    ['07'],
    'only the indices are left',
  );
  t.equal(c.account('bob.near')!.amount, NEAR + 3n, 'all three transfers landed');
});

t.test('the allowed shard rotates with the height and the shard index', async (t) => {
  const c = new TestChain();
  c.ctxExtra = { shardId: 1, shardIds: [0, 1, 2] };
  c.height = 4;
  const allowed: number[] = [];
  for (let i = 0; i < 3; i++) {
    c.block();
    allowed.push(c.congestionInfo!.allowedShard);
  }
  // Heights 5, 6, 7 with shard index 1: all_shards[(height + 1) % 3].
  t.same(allowed, [0, 1, 2]);
});

t.test('the size limit counts only the transactions taken (total_size grows on success)', async (t) => {
  const tx = (nonce: bigint) =>
    signTx(alice, 'alice.near', 'bob.near', nonce, [{ type: 'Transfer', deposit: 1n }]).bytes;
  const txs = [tx(1n), tx(1n), tx(2n), tx(3n)];
  const c = new TestChain();
  c.addAccount('alice.near', 1000n * NEAR, alice);
  const state = new TrieUpdate({ get: (k: Uint8Array) => c.state.get(Buffer.from(k).toString('hex')) });
  const r = c.runtime.prepareTransactions(state, txs, GAS_PRICE, 2, undefined, {
    sizeLimit: txs[0]!.length * 2,
  });
  t.same(r.accepted, [0, 2], 'the refused repeat of nonce 1 takes no room');
  t.same(
    r.rejected.map((x) => x.index),
    [1],
  );
  t.same(r.untaken, [3]);
});
