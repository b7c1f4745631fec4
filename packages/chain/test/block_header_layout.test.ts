// Which BlockHeaderInnerRest a block hash is taken over. nearcore's structs (core/primitives/src/
// block_header.rs): V5 is block_body_hash, prev_chunk_outgoing_receipts_root, chunk_headers_root,
// chunk_tx_root, challenges_root, random_value, prev_validator_proposals, chunk_mask,
// next_gas_price, total_supply, challenges_result, last_final_block, last_ds_final_block,
// block_ordinal, prev_height, epoch_sync_data_hash, approvals, latest_protocol_version,
// chunk_endorsements; V6 (DynamicResharding, protocol 85) drops challenges_root and
// challenges_result and ends with shard_split: Option<(ShardId, AccountId)>.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BlockHeader,
  type BlockHeaderInnerRest,
  computeBlockHash,
  decodeBlockHeader,
  encodeBlockHeader,
  encodeInnerRest,
  innerRestHash,
  innerRestLayout,
} from '@nearlite/chain';
import {
  BorshWriter,
  base58Decode,
  base58Encode,
  fromHex,
  KeyType,
  type Signature,
} from '@nearlite/primitives';
import t from 'tap';

const fill = (n: number) => new Uint8Array(32).fill(n);
const signature: Signature = { keyType: KeyType.ED25519, data: new Uint8Array(64).fill(9) };

const rest: BlockHeaderInnerRest = {
  blockBodyHash: fill(1),
  chunkReceiptsRoot: fill(2),
  chunkHeadersRoot: fill(3),
  chunkTxRoot: fill(4),
  challengesRoot: fill(5),
  randomValue: fill(6),
  validatorProposals: [],
  chunkMask: [true, false],
  nextGasPrice: 100_000_000n,
  totalSupply: 7n * 10n ** 33n,
  lastFinalBlock: fill(7),
  lastDsFinalBlock: fill(8),
  blockOrdinal: 42,
  prevHeight: 41,
  approvals: [signature, null],
  latestProtocolVersion: 86,
  chunkEndorsements: [Uint8Array.of(1), Uint8Array.of(0)],
  layout: 6,
};

/** The fields both layouts share up to the first challenges field, written as the test reads them. */
function roots(w: BorshWriter): BorshWriter {
  return w.fixed(fill(1)).fixed(fill(2)).fixed(fill(3)).fixed(fill(4));
}

function tail(w: BorshWriter): BorshWriter {
  w.fixed(fill(7)).fixed(fill(8)).u64(42n).u64(41n).u8(0);
  w.u32(2).u8(1).u8(0).fixed(signature.data).u8(0);
  return w.u32(86).u32(2).u32(1).u8(1).u32(1).u8(0);
}

function gasAndSupply(w: BorshWriter): BorshWriter {
  return w
    .u32(0)
    .u32(2)
    .u8(1)
    .u8(0)
    .u128(100_000_000n)
    .u128(7n * 10n ** 33n);
}

t.test("from protocol 85 a header hashes nearcore's BlockHeaderInnerRestV6", async (t) => {
  t.equal(innerRestLayout(84), 5);
  t.equal(innerRestLayout(85), 6);
  t.equal(innerRestLayout(86), 6);

  const v6 = new BorshWriter(512);
  gasAndSupply(roots(v6).fixed(fill(6)));
  tail(v6).u8(0); // shard_split: None
  t.same(encodeInnerRest(rest), v6.toBytes(), 'V6: no challenges, a shard split at the end');

  const v5 = new BorshWriter(512);
  gasAndSupply(roots(v5).fixed(fill(5)).fixed(fill(6))).u32(0);
  tail(v5);
  t.same(encodeInnerRest({ ...rest, layout: 5 }), v5.toBytes(), 'V5: the challenges root and result');
  t.not(base58Encode(innerRestHash(rest)), base58Encode(innerRestHash({ ...rest, layout: 5 })));
});

t.test('stored records keep their layout; records written before V6 read as V5', async (t) => {
  const lite = {
    height: 42,
    epochId: fill(10),
    nextEpochId: fill(11),
    prevStateRoot: fill(12),
    prevOutcomeRoot: fill(13),
    timestamp: 1_700_000_000_000_000_000n,
    nextBpHash: fill(14),
    blockMerkleRoot: fill(15),
  };
  const header: BlockHeader = {
    hash: computeBlockHash(fill(16), lite, innerRestHash(rest)),
    prevHash: fill(16),
    lite,
    rest,
    signature,
  };
  const record = encodeBlockHeader(header);
  t.equal(record.at(-1), 6, 'a V6 record ends with its layout');
  t.same(decodeBlockHeader(record), header);
  const v5 = { ...header, rest: { ...rest, layout: 5 as const } };
  t.same(decodeBlockHeader(encodeBlockHeader(v5)), v5);
  t.equal(encodeBlockHeader(v5).length, record.length - 1, 'V5 records have no layout byte');
  const unknown = Uint8Array.from(record);
  unknown[unknown.length - 1] = 7;
  t.throws(() => decodeBlockHeader(unknown), RangeError);

  const fixture = JSON.parse(
    readFileSync(join(import.meta.dirname, 'fixtures/v5_header_records.json'), 'utf8'),
  );
  let prev: BlockHeader | null = null;
  for (const { height, hash, record } of fixture.records as {
    height: number;
    hash: string;
    record: string;
  }[]) {
    const bytes = fromHex(record);
    const old = decodeBlockHeader(bytes);
    t.equal(old.lite.height, height);
    t.equal(old.rest.layout, 5, `block ${height} reads as V5`);
    t.same(
      computeBlockHash(old.prevHash, old.lite, innerRestHash(old.rest)),
      base58Decode(hash),
      `block ${height} still hashes to its hash`,
    );
    t.same(encodeBlockHeader(old), bytes, `block ${height} is written back byte for byte`);
    if (prev && prev.lite.height === height - 1) t.same(old.prevHash, prev.hash);
    prev = old;
  }
});
