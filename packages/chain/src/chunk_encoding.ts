// What a chunk header says of the chunk's body, as nearcore's ShardChunkWithEncoding makes it: the
// body is borsh(TransactionReceipt(transactions, prev_outgoing_receipts)), `encoded_length` its
// length, and `encoded_merkle_root` the merkle root of its Reed-Solomon parts, each hashed as
// borsh(&[u8]) (length-prefixed), as EncodedShardChunkBody::get_merkle_hash_and_paths does.
import { BorshWriter, type CryptoHash, reedSolomonParts, sha256 } from '@nearlite/primitives';
import { merklizeLeaves } from './merkle.js';

export interface ChunkEncoding {
  readonly encodedLength: number;
  readonly encodedMerkleRoot: CryptoHash;
}

/** How many parts a chunk is cut into: EpochManager::num_total_parts and num_data_parts. */
export interface ChunkParts {
  readonly data: number;
  readonly total: number;
}

/** From the genesis' `num_block_producer_seats`, as nearcore's epoch manager counts them. */
export function chunkParts(numBlockProducerSeats: number): ChunkParts {
  const total = numBlockProducerSeats > 1 ? numBlockProducerSeats : 2;
  return { data: total <= 3 ? 1 : Math.floor((total - 1) / 3), total };
}

/** nearcore's genesis chunks are encoded with one data part and two parity parts. */
export const GENESIS_CHUNK_PARTS: ChunkParts = { data: 1, total: 3 };

/** borsh(TransactionReceipt): each list's length, then its items' borsh as they are. */
export function encodeChunkBody(
  transactions: readonly Uint8Array[],
  receipts: readonly Uint8Array[],
): Uint8Array {
  let size = 8;
  for (const t of transactions) size += t.length;
  for (const r of receipts) size += r.length;
  const w = new BorshWriter(size);
  w.u32(transactions.length);
  for (const t of transactions) w.fixed(t);
  w.u32(receipts.length);
  for (const r of receipts) w.fixed(r);
  return w.toBytes();
}

export function chunkEncoding(
  transactions: readonly Uint8Array[],
  receipts: readonly Uint8Array[],
  parts: ChunkParts,
): ChunkEncoding {
  const body = encodeChunkBody(transactions, receipts);
  const leaves = reedSolomonParts(body, parts.data, parts.total).map((part) => {
    const framed = new Uint8Array(4 + part.length);
    new DataView(framed.buffer).setUint32(0, part.length, true);
    framed.set(part, 4);
    return sha256(framed);
  });
  return { encodedLength: body.length, encodedMerkleRoot: merklizeLeaves(leaves).root };
}
