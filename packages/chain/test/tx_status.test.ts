// An outcome row is decoded once while the store holds the same bytes for it: a waiter's checks on
// each block and a client's polls share the decode and the view built from it.
import {
  type ChainHandle,
  type DecodedOutcome,
  decodeStoredOutcome,
  encodeStoredOutcome,
  loadOutcome,
  storedOutcomeBytes,
  storedOutcomePath,
  type TxCodecs,
} from '@nearlite/chain';
import { BorshError, base58Encode } from '@nearlite/primitives';
import t from 'tap';

const blockHash = new Uint8Array(32).fill(9);
const id = new Uint8Array(32).fill(4);
const row = encodeStoredOutcome({
  outcomeBytes: Uint8Array.of(1, 2, 3),
  blockHash,
  shardId: 0,
  proof: [{ hash: new Uint8Array(32).fill(5), direction: 'Right' }],
});

/** A chain whose store answers the outcome row with `bytes()`, and codecs that count decodes. */
function fixture(bytes: () => Uint8Array) {
  const chain = {
    store: { get: () => bytes() },
    chainStore: { blockHeader: () => ({ lite: { height: 7 } }) },
  } as unknown as ChainHandle;
  const decoded: Uint8Array[] = [];
  const codecs = {
    decodeOutcome(b: Uint8Array): DecodedOutcome {
      decoded.push(b.slice());
      return { receiptIds: [], status: { kind: 'Unknown' }, viewJson: `{"decodes":${decoded.length}}` };
    },
  } as unknown as TxCodecs;
  return { chain, codecs, decoded };
}

t.test('the same row bytes are decoded once; new bytes for the row are decoded again', async (t) => {
  let bytes = row;
  const { chain, codecs, decoded } = fixture(() => bytes);
  const first = loadOutcome(chain, codecs, id, blockHash)!;
  const again = loadOutcome(chain, codecs, id, blockHash)!;
  t.equal(decoded.length, 1, 'decoded once');
  t.same(decoded[0], [1, 2, 3], 'the outcome bytes inside the row');
  t.equal(again.decoded, first.decoded, 'the same decoded outcome, and with it its view');
  t.equal(
    first.withIdJson,
    `{"proof":[{"hash":"${base58Encode(new Uint8Array(32).fill(5))}","direction":"Right"}],` +
      `"block_hash":"${base58Encode(blockHash)}","id":"${base58Encode(id)}","outcome":{"decodes":1}}`,
    "nearcore's ExecutionOutcomeWithIdView, in its field order",
  );
  t.equal(again.withIdJson, first.withIdJson, 'written once for the row');
  t.equal(first.height, 7);
  t.same(
    first.proof.map((p) => p.direction),
    ['Right'],
  );
  // The store hands back new bytes once the row was written again or left its cache.
  bytes = row.slice();
  const later = loadOutcome(chain, codecs, id, blockHash)!;
  t.equal(decoded.length, 2, 'decoded for the new bytes');
  t.not(later.decoded, first.decoded);
});

t.test('each codecs decodes for itself', async (t) => {
  const a = fixture(() => row);
  const b = fixture(() => row);
  loadOutcome(a.chain, a.codecs, id, blockHash);
  loadOutcome(b.chain, b.codecs, id, blockHash);
  t.equal(a.decoded.length, 1);
  t.equal(b.decoded.length, 1, 'the other codecs decoded the same bytes on its own');
});

t.test("a row's path is written out in place, step by step, as decoding it gives it", async (t) => {
  const steps = [5, 6, 5, 200].map((b, i) => ({
    hash: new Uint8Array(32).fill(b).fill(i, 31),
    direction: i % 2 === 0 ? ('Left' as const) : ('Right' as const),
  }));
  const bytes = encodeStoredOutcome({
    outcomeBytes: new Uint8Array(70).fill(3),
    blockHash,
    shardId: 3,
    proof: steps,
  });
  t.same(storedOutcomeBytes(bytes), new Uint8Array(70).fill(3), 'the outcome bytes alone');
  t.same(storedOutcomeBytes(bytes), decodeStoredOutcome(bytes).outcomeBytes);
  const path = storedOutcomePath(bytes);
  t.equal(path.length, 4);
  decodeStoredOutcome(bytes).proof.forEach((p, i) => {
    t.same(bytes.subarray(path.at + 33 * i, path.at + 33 * i + 32), p.hash, `step ${i}'s hash`);
    t.equal(bytes[path.at + 33 * i + 32], p.direction === 'Left' ? 0 : 1, `step ${i}'s direction`);
  });
  const { chain, codecs } = fixture(() => bytes);
  const json = JSON.parse(loadOutcome(chain, codecs, id, blockHash)!.withIdJson);
  t.same(
    json.proof,
    steps.map((p) => ({ hash: base58Encode(p.hash), direction: p.direction })),
    'every step, a hash seen before among them',
  );
  t.same(Object.keys(json), ['proof', 'block_hash', 'id', 'outcome']);
});

t.test('a truncated row is refused, not read past its end', async (t) => {
  const bytes = encodeStoredOutcome({
    outcomeBytes: Uint8Array.of(1, 2),
    blockHash,
    shardId: 0,
    proof: [{ hash: new Uint8Array(32).fill(1), direction: 'Left' }],
  });
  for (const n of [0, 3, 5, 20, bytes.length - 1]) {
    t.throws(() => storedOutcomePath(bytes.subarray(0, n)), BorshError, `the path of ${n} bytes`);
  }
  t.throws(() => storedOutcomeBytes(bytes.subarray(0, 5)), BorshError, 'the outcome of 5 bytes');
  t.throws(() => storedOutcomeBytes(bytes.subarray(0, 2)), BorshError, 'the outcome of 2 bytes');
});
