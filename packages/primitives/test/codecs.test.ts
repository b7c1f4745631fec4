import {
  accountContract,
  accountIdError,
  accountType,
  accountView,
  BorshError,
  BorshReader,
  BorshWriter,
  base58Decode,
  base58Encode,
  binaryKey,
  decodeAccessKey,
  decodeAccount,
  encodeAccessKey,
  encodeAccount,
  formatPublicKey,
  fromBase64,
  fromHex,
  fromUtf8,
  isSubAccountOf,
  parsePublicKey,
  setU32,
  setU64,
  sha256,
  stringifyJson,
  toHex,
  utf8,
  withContract,
} from '@nearlite/primitives';
import t from 'tap';

t.test('base58 round-trips and matches known vectors', async (t) => {
  t.equal(base58Encode(new Uint8Array(32)), '11111111111111111111111111111111');
  // sha256 of the empty string, a well-known base58 value in NEAR tooling
  t.equal(base58Encode(sha256(new Uint8Array(0))), 'GKot5hBsd81kMupNCXHaqbhv3huEbxAFMLnpcX2hniwn');
  t.equal(
    toHex(base58Decode('5o1trt9N9YgDL4xeY33z9adS5Ub3jMmuyQpWM7UHowrq')),
    '473879d6725b890240eee186aea1f14960e2132094d55ba70195819a7a155372',
  );
  for (const bytes of [new Uint8Array(0), Uint8Array.of(0, 0, 1), Uint8Array.of(255, 254, 0, 7)]) {
    t.same(base58Decode(base58Encode(bytes)), bytes);
  }
  t.throws(() => base58Decode('0OIl'), /invalid base58 character/);
});

t.test('borsh integers, strings, options and strict ends', async (t) => {
  const bytes = new BorshWriter(4)
    .u8(1)
    .u32(0xdeadbeef)
    .u64(2n ** 63n)
    .u128(10n ** 24n)
    .string('héllo')
    .option(null, (w, v: number) => w.u8(v))
    .option(7, (w, v) => w.u8(v))
    .toBytes();
  const r = new BorshReader(bytes);
  t.equal(r.u8(), 1);
  t.equal(r.u32(), 0xdeadbeef);
  t.equal(r.u64(), 2n ** 63n);
  t.equal(r.u128(), 10n ** 24n);
  t.equal(r.string(), 'héllo');
  t.equal(
    r.option((r) => r.u8()),
    null,
  );
  t.equal(
    r.option((r) => r.u8()),
    7,
  );
  r.end();
  t.throws(() => new BorshReader(Uint8Array.of(1, 2)).u32(), BorshError);
  t.throws(() => new BorshReader(Uint8Array.of(1, 2)).end(), /^Not all bytes read$/);
  t.throws(
    () => new BorshReader(Uint8Array.of(255, 255, 255, 255)).vec((r) => r.u8()),
    /^Unexpected length of input$/,
  );
  t.throws(() => new BorshWriter().u64(-1n), BorshError);
  // A leading byte-order mark is a character of the string (a method name "\uFEFFsay" is not "say").
  const bom = Uint8Array.of(5, 0, 0, 0, 0xef, 0xbb, 0xbf, 0x68, 0x69);
  t.equal(new BorshReader(bom).string(), '\uFEFFhi');
  t.equal(fromUtf8(bom.subarray(4)), '\uFEFFhi');
});

// Writers take their buffers from shared slabs: writers alive at once (nested encoders), writers that
// outgrow their region and writers across many slabs must each keep exactly their own bytes, and a
// string is its UTF-8 length then its UTF-8 bytes however it is encoded.
t.test('borsh writers alive at once keep their own bytes, across slabs and growth', async (t) => {
  const utf8 = new TextEncoder();
  for (const s of ['', 'alice.near', 'héllo ✓ 😀', 'x'.repeat(70_000), '\ud800 lone']) {
    const bytes = utf8.encode(s);
    const expected = new Uint8Array(4 + bytes.length);
    new DataView(expected.buffer).setUint32(0, bytes.length, true);
    expected.set(bytes, 4);
    t.same(new BorshWriter(1).string(s).toBytes(), expected, `string of ${s.length} units`);
  }
  // 5,000 writers written in turns, most outgrowing their first region, spanning many slabs.
  const writers = Array.from({ length: 5_000 }, (_, i) => new BorshWriter(1 + (i % 97)));
  for (let round = 0; round < 40; round++) {
    for (const [i, w] of writers.entries()) w.u32(i * 40 + round);
  }
  writers.forEach((w, i) => {
    const r = new BorshReader(w.toBytes());
    for (let round = 0; round < 40; round++) {
      if (r.u32() !== i * 40 + round) t.fail(`writer ${i}, round ${round}`);
    }
    r.end();
  });
  t.pass('5,000 interleaved writers read back');
  // A copy is the caller's: later writers do not reach it.
  const kept = new BorshWriter(8).u64(42n).toBytes();
  for (let i = 0; i < 10_000; i++) new BorshWriter(64).u64(0xffffffffn).toBytes();
  t.same(kept, Uint8Array.of(42, 0, 0, 0, 0, 0, 0, 0));
});

t.test('utf8 is TextEncoder for short and long, ASCII and not', async (t) => {
  const encoder = new TextEncoder();
  const texts = [
    '',
    'a',
    'alice.near',
    'x'.repeat(64),
    'x'.repeat(65),
    `${'y'.repeat(63)}é`,
    'ü',
    '😀',
    '\ud800',
    '\u007f\u0080',
  ];
  for (const text of texts) t.same(utf8(text), encoder.encode(text), JSON.stringify(text.slice(0, 12)));
});

t.test('setU64 and setU32 write what DataView writes, for every kind of value', async (t) => {
  const values: (number | bigint)[] = [
    0,
    1,
    255,
    2 ** 32 - 1,
    2 ** 32,
    2 ** 53 - 1,
    0n,
    2n ** 64n - 1n,
    2n ** 64n + 7n,
    -1n,
    -(2n ** 63n),
  ];
  for (let i = 0; i < 200; i++)
    values.push(
      Math.floor(Math.random() * 2 ** 53),
      BigInt.asUintN(64, BigInt(Math.floor(Math.random() * 2 ** 53)) << 11n),
    );
  for (const v of values) {
    for (const le of [true, false]) {
      const ours = new Uint8Array(11);
      setU64(ours, 3, v, le);
      const theirs = new Uint8Array(11);
      new DataView(theirs.buffer).setBigUint64(3, BigInt.asUintN(64, BigInt(v)), le);
      if (toHex(ours) !== toHex(theirs)) t.fail(`u64 ${v} ${le ? 'LE' : 'BE'}`);
      const n = Number(BigInt.asUintN(32, BigInt(v)));
      const ours32 = new Uint8Array(6);
      setU32(ours32, 1, n, le);
      const theirs32 = new Uint8Array(6);
      new DataView(theirs32.buffer).setUint32(1, n, le);
      if (toHex(ours32) !== toHex(theirs32)) t.fail(`u32 ${n} ${le ? 'LE' : 'BE'}`);
    }
  }
  t.pass(`${values.length} values both ways`);
  // A refcount is a signed i64: negative counts are two's complement, as setBigInt64 writes them.
  const rc = new Uint8Array(8);
  setU64(rc, 0, -2n, true);
  t.same(rc, Uint8Array.of(0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff));
});

t.test("binaryKey and toHex are Buffer's latin1 and hex, short or long, own or a view", async (t) => {
  const big = new Uint8Array(512).map((_, i) => (i * 167 + 13) & 0xff);
  for (let n = 0; n <= 130; n++) {
    for (const bytes of [big.slice(0, n), big.subarray(7, 7 + n)]) {
      const buffer = Buffer.from(bytes);
      if (binaryKey(bytes) !== buffer.toString('latin1')) t.fail(`binaryKey of ${n}`);
      if (toHex(bytes) !== buffer.toString('hex')) t.fail(`toHex of ${n}`);
    }
  }
  t.pass('lengths 0 to 130');
});

t.test("account ids follow nearcore's rules and messages", async (t) => {
  for (const ok of [
    'near',
    'test.near',
    'a-b_c.d',
    '0x1234567890123456789012345678901234567890',
    'a'.repeat(64),
  ]) {
    t.equal(accountIdError(ok), null, ok);
  }
  t.equal(accountIdError('a'), 'the Account ID is too short');
  t.equal(accountIdError('a'.repeat(65)), 'the Account ID is too long');
  t.equal(accountIdError('Alice.near'), "the Account ID contains an invalid character 'A' at index 0");
  t.equal(accountIdError('a..b'), "the Account ID has a redundant separator '.' at index 2");
  t.equal(accountIdError('.ab'), "the Account ID has a redundant separator '.' at index 0");
  t.equal(accountIdError('ab-'), "the Account ID has a redundant separator '-' at index 2");
  t.equal(
    accountType('79b5562e8fe654f94078b112e8a98ba7901f853ae695bed7e0e3910bad049664'),
    'NearImplicitAccount',
  );
  t.equal(accountType('test.near'), 'NamedAccount');
  t.ok(isSubAccountOf('alice.test.near', 'test.near'));
  t.notOk(isSubAccountOf('a.alice.test.near', 'test.near'));
  t.notOk(isSubAccountOf('xtest.near', 'test.near'));
});

t.test('public keys parse and format; account and access key values match trie.md', async (t) => {
  const pk = parsePublicKey('ed25519:9C6hybhQ6Aycep9jaUnP6uL9ZYvDjUp1aSkFWPUFJtpj');
  t.equal(toHex(pk.data), '79b5562e8fe654f94078b112e8a98ba7901f853ae695bed7e0e3910bad049664');
  t.equal(formatPublicKey(pk), 'ed25519:9C6hybhQ6Aycep9jaUnP6uL9ZYvDjUp1aSkFWPUFJtpj');
  t.same(parsePublicKey('9C6hybhQ6Aycep9jaUnP6uL9ZYvDjUp1aSkFWPUFJtpj'), pk, 'no prefix means ed25519');
  t.throws(() => parsePublicKey('ed25519:abc'), /length/);
  t.throws(() => parsePublicKey('rsa:abc'), /unknown key type/);
  // near-crypto's KeyType::from_str lowercases the type (ASCII only) before matching it.
  t.same(parsePublicKey('ED25519:9C6hybhQ6Aycep9jaUnP6uL9ZYvDjUp1aSkFWPUFJtpj'), pk, 'a type in capitals');
  t.throws(() => parsePublicKey('RSA:abc'), /unknown key type 'rsa'/);
  // trie.md §6.1: the treasury.near account value
  const account = { amount: 10n ** 25n, locked: 0n, codeHash: new Uint8Array(32), storageUsage: 182n };
  const bytes = encodeAccount(account);
  t.equal(bytes.length, 72);
  t.equal(toHex(sha256(bytes)), '24c376bf0203354ba8359d07acac2faa43041964822060b19a87315f3896b8a2');
  t.same(decodeAccount(bytes), account);
  // u128::MAX first marks a versioned account: an unversioned one holding it could not be read back.
  t.throws(() => encodeAccount({ ...account, amount: (1n << 128n) - 1n }), {
    name: 'BorshError',
    message: /version V1 cannot hold u128::MAX/,
  });
  // trie.md §1.2: a FullAccess key with nonce 11
  t.equal(toHex(encodeAccessKey({ nonce: 11n, permission: { kind: 'FullAccess' } })), '0b0000000000000001');
  const fc = {
    nonce: 0n,
    permission: { kind: 'FunctionCall' as const, allowance: 0n, receiverId: 'x.near', methodNames: ['a'] },
  };
  t.same(decodeAccessKey(encodeAccessKey(fc)), fc, 'allowance 0 stays Some(0)');
});

t.test('stringifyJson writes u64 bigints as exact numbers', async (t) => {
  t.equal(
    stringifyJson({ timestamp: 1714000000123456789n, s: 'x' }),
    '{"timestamp":1714000000123456789,"s":"x"}',
  );
  t.equal(
    stringifyJson({ s: 'nearlite:bigint:1' }),
    '{"s":"nearlite:bigint:1"}',
    'plain strings are untouched',
  );
});

t.test('strict base64', async (t) => {
  t.same(fromBase64('AQID'), Uint8Array.of(1, 2, 3));
  t.throws(() => fromBase64('AQI'), /invalid base64/);
  t.throws(() => fromBase64('A*ID'), /invalid base64/);
  t.same(fromHex('0102'), Uint8Array.of(1, 2));
});

t.test('base58 agrees with a plain big-integer encoding on random inputs', async (t) => {
  const ALPHA = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  const reference = (b: Uint8Array) => {
    let zeros = 0;
    while (zeros < b.length && b[zeros] === 0) zeros++;
    let n = 0n;
    for (const x of b) n = (n << 8n) | BigInt(x);
    let s = '';
    while (n > 0n) {
      s = ALPHA[Number(n % 58n)] + s;
      n /= 58n;
    }
    return '1'.repeat(zeros) + s;
  };
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  let mismatches = 0;
  for (let i = 0; i < 3000; i++) {
    const b = Uint8Array.from({ length: next() % 70 }, () => (next() % 10 === 0 ? 0 : next() % 256));
    if (base58Encode(b) !== reference(b) || base58Encode(base58Decode(base58Encode(b))) !== base58Encode(b))
      mismatches++;
  }
  t.equal(mismatches, 0);
  // Longer than the encoder's scratch holds at first, and runs of zeros, then short ones again.
  for (const length of [200, 400, 1000, 32, 0, 1]) {
    const b = Uint8Array.from({ length }, (_, i) => (i < length / 4 ? 0 : next() % 256));
    t.equal(base58Encode(b), reference(b), `${length} bytes`);
    t.equal(base58Encode(new Uint8Array(length)), '1'.repeat(length));
  }
  // Numbers at and around powers of 58 and multiples of 58^5, where a division step's quotient is
  // closest to an integer (the encoder divides by multiplying with 1/58^5 and corrects the quotient).
  const bytesOf = (n: bigint) => {
    const out: number[] = [];
    for (; n > 0n; n >>= 8n) out.unshift(Number(n & 0xffn));
    return Uint8Array.from(out);
  };
  let edgeMismatches = 0;
  for (let e = 1n; e <= 90n; e++) {
    for (const base of [58n ** e, 58n ** 5n * (e * 65_537n), 1n << (e * 3n)]) {
      for (const d of [-2n, -1n, 0n, 1n, 2n]) {
        const b = bytesOf(base + d);
        if (base58Encode(b) !== reference(b)) edgeMismatches++;
      }
    }
  }
  t.equal(edgeMismatches, 0, 'around powers of 58 and multiples of 58^5');
  // Decoding any text, not only encodings: leading '1's are zero bytes, the rest a big-endian number.
  const referenceDecode = (s: string) => {
    let zeros = 0;
    while (zeros < s.length && s[zeros] === '1') zeros++;
    let n = 0n;
    for (const c of s.slice(zeros)) n = n * 58n + BigInt(ALPHA.indexOf(c));
    const bytes: number[] = [];
    for (; n > 0n; n >>= 8n) bytes.unshift(Number(n & 0xffn));
    return Uint8Array.from([...new Array(zeros).fill(0), ...bytes]);
  };
  let decodeMismatches = 0;
  for (let i = 0; i < 3000; i++) {
    const text =
      '1'.repeat(next() % 5 === 0 ? next() % 4 : 0) +
      Array.from({ length: next() % 80 }, () => ALPHA[next() % 58]).join('');
    if (Buffer.compare(base58Decode(text), referenceDecode(text)) !== 0) decodeMismatches++;
  }
  t.equal(decodeMismatches, 0, 'decoding random texts agrees with a big-integer reference');
});

t.test('AccountV2: the u128::MAX sentinel, version 0, then the contract enum', async (t) => {
  const hash = new Uint8Array(32).fill(9);
  const v1 = { amount: 5n, locked: 1n, codeHash: new Uint8Array(32), storageUsage: 214n };
  const global = withContract(v1, { kind: 'Global', hash });
  const bytes = encodeAccount(global);
  t.same(bytes.subarray(0, 16), new Uint8Array(16).fill(0xff));
  t.equal(bytes[16], 0, 'BorshVersionedAccount::V2');
  t.same(decodeAccount(bytes), global);
  t.same(accountContract(decodeAccount(bytes)), { kind: 'Global', hash });
  const byAccount = withContract(v1, { kind: 'GlobalByAccount', accountId: 'owner.near' });
  t.same(decodeAccount(encodeAccount(byAccount)), byAccount);
  // Local or no code keeps a V1 account V1 (72 bytes); a V2 account stays V2.
  t.equal(encodeAccount(withContract(v1, { kind: 'Local', hash })).length, 72);
  const local = withContract(global, { kind: 'Local', hash });
  t.same(local.v2, { contract: { kind: 'Local', hash } });
  t.same(local.codeHash, hash);
  t.same(decodeAccount(encodeAccount(local)), local);
  const badVersion = bytes.slice();
  badVersion[16] = 1;
  t.throws(() => decodeAccount(badVersion), BorshError);
  const badTag = bytes.slice();
  badTag[16 + 1 + 16 + 16 + 8] = 4;
  t.throws(() => decodeAccount(badTag), BorshError);
  const badId = encodeAccount(withContract(v1, { kind: 'GlobalByAccount', accountId: 'Owner.near' }));
  t.throws(() => decodeAccount(badId), /invalid value/);
  t.same(accountView(byAccount), {
    amount: '5',
    locked: '1',
    code_hash: '11111111111111111111111111111111',
    storage_usage: 214,
    storage_paid_at: 0,
    global_contract_account_id: 'owner.near',
  });
});

// The borsh crate's error texts (borsh 1.x: ERROR_UNEXPECTED_LENGTH_OF_INPUT, ERROR_NOT_ALL_BYTES_READ,
// bool and Option, a String's core::str::Utf8Error), which nearcore passes on in its decode failures.
t.test("a decode failure says what Rust's borsh says", async (t) => {
  const fails = (bytes: number[], read: (r: BorshReader) => unknown) => {
    try {
      read(new BorshReader(Uint8Array.from(bytes)));
    } catch (err) {
      return (err as Error).message;
    }
    return 'no error';
  };
  t.equal(
    fails([1, 2, 3], (r) => r.u32()),
    'Unexpected length of input',
  );
  t.equal(
    fails([3, 0, 0, 0, 1], (r) => r.bytes()),
    'Unexpected length of input',
  );
  t.equal(
    fails([1, 2], (r) => r.end()),
    'Not all bytes read',
  );
  t.equal(
    fails([2], (r) => r.bool()),
    'Invalid bool representation: 2',
  );
  t.equal(
    fails([5], (r) => r.option((x) => x.u8())),
    'Invalid Option representation: 5. The first byte must be 0 or 1',
  );
  // Rust's Utf8Error: where the valid prefix ends, and the invalid sequence's length by the
  // maximal-subpart rule, or that the input ends inside a sequence.
  const utf8 = (bytes: number[]) => fails([bytes.length, 0, 0, 0, ...bytes], (r) => r.string());
  t.equal(utf8([0x61, 0xff]), 'invalid utf-8 sequence of 1 bytes from index 1');
  t.equal(utf8([0x61, 0x62, 0x63, 0x80]), 'invalid utf-8 sequence of 1 bytes from index 3');
  t.equal(utf8([0xc0, 0x80]), 'invalid utf-8 sequence of 1 bytes from index 0', 'an overlong lead byte');
  t.equal(
    utf8([0xe0, 0x80, 0x80]),
    'invalid utf-8 sequence of 1 bytes from index 0',
    'an overlong three-byte form',
  );
  t.equal(utf8([0xed, 0xa0, 0x80]), 'invalid utf-8 sequence of 1 bytes from index 0', 'a surrogate');
  t.equal(utf8([0xe2, 0x82, 0x41]), 'invalid utf-8 sequence of 2 bytes from index 0');
  t.equal(utf8([0xf0, 0x9f, 0x98, 0x41]), 'invalid utf-8 sequence of 3 bytes from index 0');
  t.equal(utf8([0x41, 0xe2, 0x82]), 'incomplete utf-8 byte sequence from index 1');
  t.equal(utf8([0xf4, 0x90, 0x80, 0x80]), 'invalid utf-8 sequence of 1 bytes from index 0', 'above U+10FFFF');
});
