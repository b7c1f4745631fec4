// A chunk header's encoded_length, encoded_merkle_root and chunk_hash against real chunks of mainnet
// and testnet (NEAR Lake): chunks without transactions, whose whole body is rebuilt from the
// receipts they carry, so every byte the header commits to is known.
import { readFileSync } from 'node:fs';
import {
  type ChunkHeaderInner,
  chunkEncoding,
  chunkParts,
  computeChunkHash,
  encodeChunkBody,
  encodeShardChunkHeaderInner,
} from '@nearlite/chain';
import { base58Decode, base58Encode, combineHash, reedSolomonParts, sha256 } from '@nearlite/primitives';
import t from 'tap';
import { receiptBytesFromView } from '../../../test/helpers/receipt_view.js';

interface HeaderView {
  chunk_hash: string;
  prev_block_hash: string;
  outcome_root: string;
  prev_state_root: string;
  encoded_merkle_root: string;
  encoded_length: number;
  height_created: number;
  shard_id: number;
  gas_used: number;
  gas_limit: number;
  balance_burnt: string;
  outgoing_receipts_root: string;
  tx_root: string;
  validator_proposals: unknown[];
  congestion_info?: {
    delayed_receipts_gas: string;
    buffered_receipts_gas: string;
    receipt_bytes: number;
    allowed_shard: number;
  };
  bandwidth_requests?: { V1: { requests: unknown[] } };
}
interface RealChunk {
  source: string;
  network: 'mainnet' | 'testnet';
  protocol_version: number | null;
  header: HeaderView;
  receipts: unknown[];
}
const { chunks } = JSON.parse(
  readFileSync(new URL('./fixtures/real_chunk_encodings.json', import.meta.url), 'utf8'),
) as { chunks: RealChunk[] };

/** Each network's genesis num_block_producer_seats. */
const SEATS = { mainnet: 100, testnet: 200 } as const;

t.test('parts per chunk, as nearcore counts them from the genesis seats', async (t) => {
  t.same(chunkParts(100), { data: 33, total: 100 });
  t.same(chunkParts(200), { data: 66, total: 200 });
  t.same(chunkParts(50), { data: 16, total: 50 });
  t.same(chunkParts(3), { data: 1, total: 3 });
  t.same(chunkParts(1), { data: 1, total: 2 }, 'one seat still makes a parity part');
});

/**
 * A receipt's borsh from its view. From protocol 82 (_DeprecatedDeterministicAccountIds) every
 * receipt a contract makes is an ActionReceiptV2, and its view, which leaves out `refund_to` when it
 * is None, reads like a V1's: a receipt neither converted from a transaction (its predecessor is its
 * signer) nor a refund is a contract's.
 */
function receiptBytes(c: RealChunk, view: unknown, i: number): Uint8Array {
  const v = view as { predecessor_id: string; receipt: { Action?: { signer_id: string } } };
  const action = v.receipt.Action;
  const byContract =
    (c.protocol_version ?? 0) >= 82 &&
    action !== undefined &&
    v.predecessor_id !== 'system' &&
    v.predecessor_id !== action.signer_id;
  return receiptBytesFromView(byContract ? { ...v, receipt: { ActionV2: action } } : v, `receipts[${i}]`);
}

t.test('encoded_length and encoded_merkle_root of real chunks', async (t) => {
  let withReceipts = 0;
  for (const c of chunks) {
    const receipts = c.receipts.map((r, i) => receiptBytes(c, r, i));
    if (receipts.length > 0) withReceipts++;
    const got = chunkEncoding([], receipts, chunkParts(SEATS[c.network]));
    const name = `${c.source} shard ${c.header.shard_id}: ${receipts.length} receipts`;
    t.equal(got.encodedLength, c.header.encoded_length, `${name}: length`);
    t.equal(base58Encode(got.encodedMerkleRoot), c.header.encoded_merkle_root, `${name}: root`);
  }
  t.ok(withReceipts >= 8, 'most of them carry receipts, Data receipts among them');
});

t.test('the body is borsh(TransactionReceipt): items follow their list length unframed', async (t) => {
  const tx = Uint8Array.of(1, 2, 3);
  const receipt = Uint8Array.of(9);
  t.same([...encodeChunkBody([tx], [receipt])], [1, 0, 0, 0, 1, 2, 3, 1, 0, 0, 0, 9]);
  t.same([...encodeChunkBody([], [])], [0, 0, 0, 0, 0, 0, 0, 0]);
});

t.test('parity parts recover the data: any data-count of the parts determines them', async (t) => {
  // The code is MDS: with the data parts zeroed but one, parity rows are that part times a column.
  const bytes = Uint8Array.from({ length: 40 }, (_, i) => (i * 37 + 11) & 0xff);
  const parts = reedSolomonParts(bytes, 4, 10);
  t.equal(parts.length, 10);
  t.ok(parts.every((p) => p.length === 10));
  t.same([...parts.slice(0, 4).flatMap((p) => [...p])], [...bytes], 'the data parts are the bytes, in order');
  const zero = reedSolomonParts(new Uint8Array(40), 4, 10);
  t.ok(
    zero.every((p) => p.every((b) => b === 0)),
    'zeros encode to zeros (the code is linear)',
  );
  const sum = reedSolomonParts(
    bytes.map((b, i) => b ^ (i * 5)),
    4,
    10,
  );
  const other = reedSolomonParts(
    bytes.map((_, i) => i * 5),
    4,
    10,
  );
  t.ok(
    sum.every((p, i) => p.every((b, k) => b === (parts[i]![k]! ^ other[i]![k]!))),
    'the parity of a sum is the sum of the parities',
  );
  t.throws(() => reedSolomonParts(bytes, 0, 3), RangeError);
  t.throws(() => reedSolomonParts(bytes, 3, 3), RangeError);
  t.throws(() => reedSolomonParts(bytes, 10, 257), RangeError);
});

function innerFromView(h: HeaderView, encodedMerkleRoot: Uint8Array): ChunkHeaderInner {
  const ci = h.congestion_info!;
  return {
    prevBlockHash: base58Decode(h.prev_block_hash),
    prevStateRoot: base58Decode(h.prev_state_root),
    prevOutcomeRoot: base58Decode(h.outcome_root),
    encodedMerkleRoot,
    encodedLength: h.encoded_length,
    heightCreated: h.height_created,
    shardId: h.shard_id,
    prevGasUsed: BigInt(h.gas_used),
    gasLimit: BigInt(h.gas_limit),
    prevBalanceBurnt: BigInt(h.balance_burnt),
    prevOutgoingReceiptsRoot: base58Decode(h.outgoing_receipts_root),
    txRoot: base58Decode(h.tx_root),
    prevValidatorProposals: [],
    congestionInfo: {
      delayedReceiptsGas: BigInt(ci.delayed_receipts_gas),
      bufferedReceiptsGas: BigInt(ci.buffered_receipts_gas),
      receiptBytes: BigInt(ci.receipt_bytes),
      allowedShard: ci.allowed_shard,
    },
  };
}

t.test('chunk_hash of real chunks: ShardChunkHeaderInner::V4 with its enum tags', async (t) => {
  let checked = 0;
  for (const c of chunks) {
    const h = c.header;
    // V4 (congestion info and bandwidth requests) runs from protocol 74 to 84.
    if (!h.congestion_info || !h.bandwidth_requests || h.bandwidth_requests.V1.requests.length > 0) continue;
    if (h.validator_proposals.length > 0) continue;
    const inner = innerFromView(h, base58Decode(h.encoded_merkle_root));
    const hash = combineHash(sha256(encodeShardChunkHeaderInner(inner, 4)), inner.encodedMerkleRoot);
    t.equal(base58Encode(hash), h.chunk_hash, `${c.source} shard ${h.shard_id}`);
    checked++;
  }
  t.ok(checked >= 10, `${checked} chunks checked`);
});

t.test('from protocol 85 the inner is V5: tag 4 and a proposed split, none here', async (t) => {
  const h = chunks.find((c) => c.header.congestion_info)!.header;
  const inner = innerFromView(h, base58Decode(h.encoded_merkle_root));
  const v4 = encodeShardChunkHeaderInner(inner, 4);
  const v5 = encodeShardChunkHeaderInner(inner);
  t.equal(v4[0], 3);
  t.equal(v5[0], 4);
  t.same([...v5.subarray(1, v5.length - 1)], [...v4.subarray(1)], 'the same fields');
  t.equal(v5[v5.length - 1], 0, 'proposed_split: None');
  t.equal(
    base58Encode(computeChunkHash(inner)),
    base58Encode(combineHash(sha256(v5), inner.encodedMerkleRoot)),
    'the node hashes its chunks as V5',
  );
});
