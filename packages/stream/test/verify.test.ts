import {
  type ChunkHeader,
  chunkHeaderView,
  computeChunkHash,
  encodeChunkHeaderInner,
  encodeShardChunkHeaderInner,
} from '@nearlite/chain';
import { BorshWriter, base58Encode, combineHash, sha256 } from '@nearlite/primitives';
import {
  BlockVerificationError,
  ChunkInnerVersion,
  chunkHeadersRoot,
  HeaderLayout,
  normalizeStreamerMessage,
  snakeCaseKey,
  VerifyCheck,
  verifiedChunkVersion,
  verifiedHeaderLayout,
  verifyStreamerMessage,
} from '@nearlite/stream';
import t from 'tap';
import {
  fixtureNames,
  freshMessage,
  headerOnly,
  loadFixture,
} from '../../../test/helpers/stream_fixtures.js';

// Layouts as recomputed independently for each real block (fixtures' SOURCES: V2 for protocol 43,
// V3 for 51–60, V4 for 63–66, V5 from 73).
const EXPECTED_LAYOUT: Record<string, HeaderLayout> = {
  'mainnet-34834052': HeaderLayout.V2,
  'mainnet-61321189': HeaderLayout.V3,
  'mainnet-70834059': HeaderLayout.V3,
  'mainnet-70834061': HeaderLayout.V3,
  'mainnet-82654651': HeaderLayout.V3,
  'mainnet-82699904': HeaderLayout.V3,
  'mainnet-93085141': HeaderLayout.V3,
  'sandbox-879765': HeaderLayout.V3,
  'mainnet-105793821': HeaderLayout.V4,
  'mainnet-107503704': HeaderLayout.V4,
  'mainnet-107503705': HeaderLayout.V4,
  'mainnet-114081912': HeaderLayout.V4,
  'mainnet-115185108': HeaderLayout.V4,
  'mainnet-115185109': HeaderLayout.V4,
  'mainnet-117969098': HeaderLayout.V4,
  'mainnet-151768255': HeaderLayout.V5,
  'testnet-185758655': HeaderLayout.V5,
  'testnet-190534818': HeaderLayout.V5,
  'testnet-217143860': HeaderLayout.V5,
  'testnet-232952651': HeaderLayout.V5,
  'testnet-234187695': HeaderLayout.V5,
};

function refusal(fn: () => void): BlockVerificationError {
  try {
    fn();
  } catch (err) {
    if (err instanceof BlockVerificationError) return err;
    throw err;
  }
  throw new Error('the block was accepted');
}

t.test('every real block verifies, under the layout nearcore used for it', async (t) => {
  const names = fixtureNames({ verifiable: true });
  t.same(names.sort(), Object.keys(EXPECTED_LAYOUT).sort(), 'every fixture block has an expected layout');
  for (const name of names) {
    const { message } = loadFixture(name);
    t.equal(verifiedHeaderLayout(message.block.header), EXPECTED_LAYOUT[name], `${name} layout`);
    // A block kept without its shards is no message a source would send: refused for them.
    if (headerOnly(name))
      t.throws(() => verifyStreamerMessage(message), {
        check: 'shape',
        message: /shard 0 of the block is not in/,
      });
    else t.doesNotThrow(() => verifyStreamerMessage(message), name);
  }
});

t.test(
  "a message must carry every shard of its block and each new chunk (nearcore's indexer does)",
  async (t) => {
    const name = 'mainnet-107503704';
    const whole = freshMessage(name);
    t.doesNotThrow(() => verifyStreamerMessage(whole));
    const newChunk = whole.block.chunks.find((c) => c.height_included === whole.block.header.height)!;
    const at = whole.shards.findIndex((s) => s.shard_id === newChunk.shard_id);

    const left = freshMessage(name);
    left.shards.splice(at, 1);
    t.throws(() => verifyStreamerMessage(left), {
      check: 'shape',
      message: new RegExp(`shard ${newChunk.shard_id} of the block is not in the message`),
    });
    const emptied = freshMessage(name);
    emptied.shards[at]!.chunk = null;
    t.throws(() => verifyStreamerMessage(emptied), {
      check: 'chunk_header',
      message: new RegExp(`the block's new chunk ${newChunk.chunk_hash} is not in the message`),
    });
    const twice = freshMessage(name);
    twice.shards[at === 0 ? 1 : 0] = twice.shards[at]!;
    t.throws(() => verifyStreamerMessage(twice), { check: 'shape', message: /is in the message twice/ });
  },
);

/** ShardChunkHeaderInner's version by protocol: V2 from 41, V3 from 68, V4 from 74. */
const chunkVersionOf = (protocol: number) =>
  protocol >= 74 ? ChunkInnerVersion.V4 : protocol >= 68 ? ChunkInnerVersion.V3 : ChunkInnerVersion.V2;

t.test('every real chunk header verifies against its hash, and the hashes against the block', async (t) => {
  let chunks = 0;
  for (const name of fixtureNames({ verifiable: true })) {
    const { block } = loadFixture(name).message;
    if (!Array.isArray(block.chunks)) continue;
    const views = block.chunks as unknown as Record<string, unknown>[];
    const protocol = block.header.latest_protocol_version;
    for (const c of views) {
      t.equal(verifiedChunkVersion(c), chunkVersionOf(protocol), `${name} shard ${String(c.shard_id)}`);
      chunks++;
    }
    t.equal(
      base58Encode(chunkHeadersRoot(views)),
      block.header.chunk_headers_root,
      `${name} chunk_headers_root`,
    );
  }
  t.ok(chunks >= 60, `${chunks} real chunk headers`);
});

t.test("a node's own chunk headers verify: V5, and the untagged hash of nearlite before it", async (t) => {
  const { block } = loadFixture('testnet-232952651').message;
  const view = { ...(block.chunks[0] as unknown as Record<string, unknown>) };
  const inner = {
    prevBlockHash: new Uint8Array(32).fill(1),
    prevStateRoot: new Uint8Array(32).fill(2),
    prevOutcomeRoot: new Uint8Array(32).fill(3),
    encodedMerkleRoot: new Uint8Array(32).fill(4),
    encodedLength: 8,
    heightCreated: 10,
    shardId: 0,
    prevGasUsed: 5n,
    gasLimit: 1_000_000_000_000_000n,
    prevBalanceBurnt: 7n,
    prevOutgoingReceiptsRoot: new Uint8Array(32).fill(5),
    txRoot: new Uint8Array(32).fill(6),
    prevValidatorProposals: [],
    congestionInfo: { delayedReceiptsGas: 1n, bufferedReceiptsGas: 2n, receiptBytes: 3n, allowedShard: 0 },
  };
  const header: ChunkHeader = {
    chunkHash: computeChunkHash(inner),
    inner,
    heightIncluded: 10,
    signature: { keyType: 0, data: new Uint8Array(64) },
  };
  const own = chunkHeaderView(header);
  t.equal(verifiedChunkVersion(own), ChunkInnerVersion.V5);
  const legacy = combineHash(sha256(encodeChunkHeaderInner(inner)), inner.encodedMerkleRoot);
  t.equal(verifiedChunkVersion({ ...own, chunk_hash: base58Encode(legacy) }), ChunkInnerVersion.Untagged);
  t.equal(verifiedChunkVersion({ ...own, gas_used: 6 }), null, 'an edited field matches no version');
  // A chunk proposing a split (dynamic resharding): Some(TrieSplit) in place of None.
  const proposal = { boundary_account: 'm.near', left_memory: 1000, right_memory: 2000 };
  const v5 = encodeShardChunkHeaderInner(inner);
  const some = new BorshWriter(v5.length + 30)
    .fixed(v5.subarray(0, v5.length - 1))
    .u8(1)
    .string('m.near')
    .u64(1000n)
    .u64(2000n)
    .toBytes();
  const proposing = {
    ...own,
    proposed_split: proposal,
    chunk_hash: base58Encode(combineHash(sha256(some), inner.encodedMerkleRoot)),
  };
  t.equal(verifiedChunkVersion(proposing), ChunkInnerVersion.V5, 'with its proposed split');
  t.equal(verifiedChunkVersion({ ...proposing, proposed_split: null }), null, 'the split left out');
  t.equal(verifiedChunkVersion({ ...proposing, proposed_split: { ...proposal, left_memory: 1001 } }), null);
  t.equal(verifiedChunkVersion({ ...view, congestion_info: null }), null, 'nor does a field left out');
});

t.test('the altered mainnet header 34834053 is refused by its hash', async (t) => {
  const err = refusal(() => verifyStreamerMessage(loadFixture('mainnet-34834053').message));
  t.equal(err.check, VerifyCheck.BlockHash);
  t.equal(err.height, 34834053);
});

t.test('bare headers of 86673090–92 verify and chain', async (t) => {
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { STREAM_FIXTURES } = await import('../../../test/helpers/stream_fixtures.js');
  let prev: string | null = null;
  for (const h of [86673090, 86673091, 86673092]) {
    const header = JSON.parse(readFileSync(join(STREAM_FIXTURES, `mainnet-${h}.header.json`), 'utf8'));
    t.equal(verifiedHeaderLayout(header), HeaderLayout.V3, `${h}`);
    if (prev) t.equal(header.prev_hash, prev);
    prev = header.hash;
  }
});

t.test('consecutive real blocks link; a wrong link is refused', async (t) => {
  const a = loadFixture('mainnet-107503704').message;
  const b = loadFixture('mainnet-107503705').message;
  t.doesNotThrow(() => verifyStreamerMessage(b, { prev: { hash: a.block.header.hash, height: 107503704 } }));
  const skipped = loadFixture('mainnet-70834061').message;
  t.doesNotThrow(() =>
    verifyStreamerMessage(skipped, {
      prev: { hash: loadFixture('mainnet-70834059').message.block.header.hash, height: 70834059 },
    }),
  );
  const err = refusal(() =>
    verifyStreamerMessage(b, { prev: { hash: b.block.header.hash, height: 107503704 } }),
  );
  t.equal(err.check, VerifyCheck.PrevHash);
  t.equal(err.height, 107503705);
  t.notMatch(err.message, /no block/, 'nothing between them');
  // A block after heights the source answered as empty: one of them may be a block it lacks.
  const after = refusal(() =>
    verifyStreamerMessage(b, { prev: { hash: b.block.header.hash, height: 107503702 } }),
  );
  t.match(after.message, /; heights 107503703\.\.107503704 were answered as having no block$/);
  const one = refusal(() =>
    verifyStreamerMessage(b, { prev: { hash: b.block.header.hash, height: 107503703 } }),
  );
  t.match(one.message, /; height 107503704 was answered as having no block$/);
});

t.test('tampered copies are refused with the failing check named', async (t) => {
  const name = 'mainnet-93085141';
  const cases: [string, (m: ReturnType<typeof freshMessage>) => void, string][] = [
    [
      'changed hash',
      (m) => {
        m.block.header.hash = 'DEK7XjDsduvDwVidshcJWGBGby7XLXozPagCgQDKmeae';
      },
      VerifyCheck.BlockHash,
    ],
    [
      'edited header field',
      (m) => {
        m.block.header.gas_price = '100000001';
      },
      VerifyCheck.BlockHash,
    ],
    [
      'edited timestamp',
      (m) => {
        m.block.header.timestamp_nanosec = '1685450000000000000';
      },
      VerifyCheck.BlockHash,
    ],
    [
      'outcome names another block',
      (m) => {
        m.shards[0]!.receipt_execution_outcomes[0]!.execution_outcome.block_hash =
          '3UGi8N6uikSd9ZgoUyz8FjhZhxErjhiqQ24AGDfq4DSf';
      },
      VerifyCheck.OutcomeBlockHash,
    ],
    [
      'receipt outcome id is another receipt',
      (m) => {
        const outs = m.shards[0]!.receipt_execution_outcomes;
        outs[0]!.execution_outcome.id = outs[1]!.receipt.receipt_id;
      },
      VerifyCheck.ReceiptOutcomeId,
    ],
    [
      'tx outcome id is not the tx hash',
      (m) => {
        const txs = m.shards[0]!.chunk!.transactions;
        txs[0]!.outcome.execution_outcome.id = txs[1]!.transaction.hash;
      },
      VerifyCheck.TxOutcomeId,
    ],
    [
      'chunk header disagrees with the block',
      (m) => {
        m.shards[1]!.chunk!.header.gas_used = 1;
      },
      VerifyCheck.ChunkHeader,
    ],
    [
      'chunk header field edited in the block and its shard alike',
      (m) => {
        m.block.chunks[1]!.balance_burnt = '1';
        m.shards[1]!.chunk!.header.balance_burnt = '1';
      },
      VerifyCheck.ChunkHash,
    ],
    [
      'chunk headers in another order',
      (m) => {
        m.block.chunks.reverse();
      },
      VerifyCheck.ChunkHeadersRoot,
    ],
    [
      'a chunk included at another height',
      (m) => {
        m.block.chunks[2]!.height_included = 93085140;
        m.shards[2]!.chunk!.header.height_included = 93085140;
      },
      VerifyCheck.ChunkHeadersRoot,
    ],
  ];
  // Values a decoder would forgive, or fields no hash covers, of another type than nearcore writes:
  // each would change the shape of what a follower answers.
  type Edit = (h: Record<string, unknown>, m: ReturnType<typeof freshMessage>) => void;
  const shapes: [string, Edit][] = [
    ['a balance as a number', (h) => (h.gas_price = 100000000)],
    ['a height as hex', (h) => (h.prev_height = '0x6b')],
    ['an ordinal with spaces', (h) => (h.block_ordinal = ` ${String(h.block_ordinal)} `)],
    ['a version as a string', (h) => (h.latest_protocol_version = String(h.latest_protocol_version))],
    ['1 for true', (h) => (h.chunk_mask = (h.chunk_mask as boolean[]).map((b) => (b ? 1 : 0)))],
    ['a signature as a number', (h) => (h.signature = 12345)],
    ['an object for a reward', (h) => (h.rent_paid = { evil: 'object' })],
    ['the unhashed timestamp edited', (h) => (h.timestamp = BigInt(h.timestamp as bigint) + 1n)],
    [
      'an object for the author',
      (_h, m) => ((m.block as Record<string, unknown>).author = { not: 'a string' }),
    ],
    ['a chunk author of null', (_h, m) => ((m.shards[0]!.chunk as Record<string, unknown>).author = null)],
    [
      'an allowed shard as text',
      (_h, m) => {
        for (const c of [m.block.chunks[0], m.shards[0]!.chunk!.header] as Record<string, unknown>[])
          c.congestion_info = {
            delayed_receipts_gas: '0',
            buffered_receipts_gas: '0',
            receipt_bytes: 0,
            allowed_shard: '0',
          };
      },
    ],
    [
      'a bandwidth bitmap of four bytes',
      (_h, m) => {
        const request = { to_shard: 1, requested_values_bitmap: { data: [1, 2, 3, 4] } };
        for (const c of [m.block.chunks[0], m.shards[0]!.chunk!.header] as Record<string, unknown>[])
          c.bandwidth_requests = { V1: { requests: [request] } };
      },
    ],
    [
      'gas used as a word',
      (_h, m) => {
        (m.block.chunks[0] as Record<string, unknown>).gas_used = 'lots';
        (m.shards[0]!.chunk!.header as Record<string, unknown>).gas_used = 'lots';
      },
    ],
  ];
  for (const [what, edit] of shapes)
    cases.push([what, (m) => edit(m.block.header as Record<string, unknown>, m), VerifyCheck.Shape]);
  for (const [what, edit, check] of cases) {
    const m = freshMessage(name);
    t.doesNotThrow(() => verifyStreamerMessage(m), `${what}: untouched copy verifies`);
    edit(m);
    const err = refusal(() => verifyStreamerMessage(m));
    t.equal(err.check, check, what);
    t.equal(err.height, 93085141, `${what}: names the height`);
  }
});

t.test('camelCase messages come back as nearcore snake_case', async (t) => {
  t.equal(snakeCaseKey('prevStateRoot'), 'prev_state_root');
  t.equal(snakeCaseKey('codeBase64'), 'code_base64');
  t.equal(snakeCaseKey('FunctionCall'), 'FunctionCall');
  t.equal(snakeCaseKey('V1'), 'V1');
  const { message, text } = loadFixture('mainnet-61321189');
  t.ok(text.includes('"receiptExecutionOutcomes"'), 'the file is camelCased');
  t.equal(message.block.header.timestamp, BigInt(message.block.header.timestamp_nanosec));
  t.equal(message.shards.length, 4);
  const keys = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        keys.add(k);
        walk(x);
      }
    }
  };
  walk(message);
  for (const k of keys) t.ok(/^[a-z0-9_]+$/.test(k) || /^[A-Z]/.test(k), `key ${k}`);
  t.ok(keys.has('receipt_execution_outcomes') && keys.has('FunctionCall') && keys.has('SuccessValue'));
  const types = new Set(message.shards.flatMap((s) => s.state_changes.map((c) => c.type)));
  t.ok(types.has('account_update'), 'state change types are values, untouched');
  t.doesNotThrow(() => verifyStreamerMessage(message), 'the header verifies after normalization');
  const again = normalizeStreamerMessage(message);
  t.same(again, message, 'normalizing a snake_case message changes nothing');
});
