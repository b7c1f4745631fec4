import {
  BlockVerificationError,
  HeaderLayout,
  normalizeStreamerMessage,
  snakeCaseKey,
  VerifyCheck,
  verifiedHeaderLayout,
  verifyStreamerMessage,
} from '@nearlite/stream';
import t from 'tap';
import { fixtureNames, freshMessage, loadFixture } from '../../../test/helpers/stream_fixtures.js';

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
    t.doesNotThrow(() => verifyStreamerMessage(message), name);
  }
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
