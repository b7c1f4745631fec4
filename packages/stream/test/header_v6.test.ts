// Headers from protocol 85 (DynamicResharding): nearcore hashes BlockHeaderInnerRestV6, which is
// BlockHeaderInnerRestV5 without challenges_root and challenges_result and with
// `shard_split: Option<(ShardId, AccountId)>` after chunk_endorsements (core/primitives/src/
// block_header.rs; the same order as V7's fields). No real block of protocol 85 or later is among
// the fixtures, so a V6 hash is derived here from a real V5 header's bytes, which its real hash
// vouches for, by exactly that difference.
import {
  BorshWriter,
  base58Decode,
  base58Encode,
  combineHash,
  concatBytes,
  sha256,
  stringifyJson,
} from '@nearlite/primitives';
import {
  computeHeaderHash,
  encodeInnerLiteView,
  encodeInnerRestView,
  HeaderLayout,
  parseStreamJson,
  type StreamerMessage,
  VerifyCheck,
  verifiedHeaderLayout,
  verifyStreamerMessage,
} from '@nearlite/stream';
import t from 'tap';
import { freshMessage } from '../../../test/helpers/stream_fixtures.js';

type Json = Record<string, unknown>;

const FIXTURE = 'testnet-234187695';

/** V5's bytes less challenges_root (after the four roots) and the empty challenges_result. */
function v6FromV5(h: Json, split: Uint8Array = Uint8Array.of(0)): Uint8Array {
  const v5 = encodeInnerRestView(h, HeaderLayout.V5);
  // challenges_result (u32 0) sits right before last_final_block.
  const after = concatBytes(new Uint8Array(4), base58Decode(h.last_final_block as string));
  let at = -1;
  for (let i = 160; i + after.length <= v5.length && at < 0; i++) {
    if (after.every((b, j) => v5[i + j] === b)) at = i;
  }
  if (at < 0) throw new Error('no challenges_result in the V5 bytes');
  return concatBytes(v5.subarray(0, 128), v5.subarray(160, at), v5.subarray(at + 4), split);
}

function hashOf(h: Json, rest: Uint8Array): string {
  const inner = combineHash(sha256(encodeInnerLiteView(h)), sha256(rest));
  return base58Encode(combineHash(inner, base58Decode(h.prev_hash as string)));
}

/** The fixture's header at protocol 86, hashed as nearcore would with `split`. */
function v6Header(split?: Uint8Array): Json {
  const h = { ...(freshMessage(FIXTURE).block.header as unknown as Json), latest_protocol_version: 86 };
  return { ...h, hash: hashOf(h, v6FromV5(h, split)) };
}

const someSplit = (shard: bigint, account: string) =>
  new BorshWriter(32).u8(1).u64(shard).string(account).toBytes();

t.test('the V6 inner rest is V5 without the challenges and with a shard split', async (t) => {
  const h = freshMessage(FIXTURE).block.header as unknown as Json;
  t.equal(verifiedHeaderLayout(h), HeaderLayout.V5, 'the real header verifies under V5');
  t.same(encodeInnerRestView(h, HeaderLayout.V6), v6FromV5(h));
  t.same(
    encodeInnerRestView(h, HeaderLayout.V6, { shardId: 3n, boundaryAccount: 'm.near' }),
    v6FromV5(h, someSplit(3n, 'm.near')),
  );
});

t.test('a header of protocol 85 or later verifies under V6', async (t) => {
  const h = v6Header();
  t.equal(verifiedHeaderLayout(h), HeaderLayout.V6);
  t.equal(base58Encode(computeHeaderHash(h, HeaderLayout.V6)), h.hash);
  t.equal(
    verifiedHeaderLayout({ ...h, challenges_root: base58Encode(new Uint8Array(32).fill(1)) }),
    HeaderLayout.V6,
    'V6 does not hash challenges_root',
  );
  t.equal(verifiedHeaderLayout({ ...h, total_supply: '1' }), null, 'an edited field matches no layout');
  t.equal(verifiedHeaderLayout({ ...h, shard_split: [0, 'a.near'] }), null, 'nor a split it did not have');

  // The whole message: the block's outcomes name the new hash.
  const message = freshMessage(FIXTURE);
  const old = message.block.header.hash;
  const v6 = parseStreamJson(stringifyJson(message).replaceAll(old, h.hash as string)) as StreamerMessage;
  v6.block.header.latest_protocol_version = 86;
  t.doesNotThrow(() => verifyStreamerMessage(v6));
  // The retired challenge fields are not hashed: anything but nearcore's defaults is refused.
  const challenged = structuredClone(v6);
  (challenged.block.header as unknown as Json).challenges_result = [
    { account_id: 'x.near', is_double_sign: true },
  ];
  t.equal(verifiedHeaderLayout(challenged.block.header as unknown as Json), HeaderLayout.V6);
  t.throws(() => verifyStreamerMessage(challenged), { check: VerifyCheck.Shape, message: /challenges/ });
  const rooted = structuredClone(v6);
  (rooted.block.header as unknown as Json).challenges_root = base58Encode(new Uint8Array(32).fill(1));
  t.throws(() => verifyStreamerMessage(rooted), { check: VerifyCheck.Shape });
  v6.block.header.gas_price = '1';
  t.throws(() => verifyStreamerMessage(v6), { check: VerifyCheck.BlockHash });
});

t.test("a header's shard split, shown in its view or proposed by one of its chunks", async (t) => {
  const h = v6Header(someSplit(3n, 'm.near'));
  t.equal(verifiedHeaderLayout(h), null, 'no split to try');
  t.equal(verifiedHeaderLayout({ ...h, shard_split: [3, 'm.near'] }), HeaderLayout.V6, 'shown');
  t.equal(verifiedHeaderLayout({ ...h, shard_split: null }), null, 'the view says none');
  const proposal = (shard: number, account: string) => ({
    shard_id: shard,
    proposed_split: { boundary_account: account, left_memory: 1, right_memory: 2 },
  });
  t.equal(verifiedHeaderLayout(h, [{ shard_id: 0 }, proposal(3, 'm.near')]), HeaderLayout.V6, 'proposed');
  t.equal(verifiedHeaderLayout(h, [proposal(2, 'm.near'), proposal(3, 'n.near')]), null);
  t.throws(() => verifiedHeaderLayout({ ...h, shard_split: { shard_id: 3 } }), {
    name: 'HeaderViewError',
  });
});
