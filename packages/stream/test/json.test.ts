// parseStreamJson keeps nearcore's u64 JSON numbers exact, and nothing else changes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringifyJson } from '@nearlite/primitives';
import t from 'tap';
import { parseStreamJson } from '../src/json.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'lake', '000000879765');

t.test('u64 numbers beyond 2^53 become exact bigints', async (t) => {
  const text = readFileSync(join(FIXTURE, 'block.json'), 'utf8');
  const v = parseStreamJson(text) as {
    header: { timestamp: unknown; timestamp_nanosec: string; height: number };
  };
  t.equal(v.header.timestamp, 1676913656724153000n, 'the Lake block timestamp, exactly');
  t.equal(String(v.header.timestamp), v.header.timestamp_nanosec, 'agrees with timestamp_nanosec');
  t.equal(v.header.height, 879765, 'small numbers stay numbers');
  t.same(JSON.parse(stringifyJson(v)), JSON.parse(text), 'writes back to the same JSON');
  t.equal(stringifyJson(parseStreamJson('{"a":18446744073709551615}')), '{"a":18446744073709551615}');
});

t.test('strings and other numbers are untouched', async (t) => {
  const v = parseStreamJson(
    '{"s":"12345678901234567890","e":"\\"1234567890123456789\\"","f":1.5e300,"n":-12345678901234567,"z":"\\u0000x:0"}',
  ) as Record<string, unknown>;
  t.equal(v.s, '12345678901234567890');
  t.equal(v.e, '"1234567890123456789"');
  t.equal(v.f, 1.5e300);
  t.equal(v.n, -12345678901234567n);
  t.equal(v.z, '\u0000x:0', 'a string shaped like a marker stays a string');
  t.throws(() => parseStreamJson('{"a":'), SyntaxError);
});

t.test('big integers anywhere in the tree; long fractions and exponents stay numbers', async (t) => {
  const v = parseStreamJson(
    '[{"a":[1,12345678901234567,{"b":99999999999999999999}]},0.12345678901234567,1.25e-10,123456789012345678e2]',
  );
  t.same(v, [
    { a: [1, 12345678901234567n, { b: 99999999999999999999n }] },
    // What JSON.parse makes of them: numbers, rounded as JavaScript rounds them.
    Number('0.12345678901234567'),
    1.25e-10,
    Number('123456789012345678e2'),
  ]);
  t.equal(parseStreamJson('18446744073709551615'), 18446744073709551615n, 'a bare top-level u64');
  const proto = parseStreamJson('{"__proto__":12345678901234567890,"x":1}') as Record<string, unknown>;
  t.equal(Object.getPrototypeOf(proto), Object.prototype, 'a __proto__ key does not set the prototype');
  t.equal(
    Object.getOwnPropertyDescriptor(proto, '__proto__')?.value,
    12345678901234567890n,
    'it is an own value',
  );
  t.same(parseStreamJson('{"k\\"12345678901234567":"v"}'), { 'k"12345678901234567': 'v' }, 'digits in a key');
});

t.test('a text with no integer beyond 2^53 takes one parse, by the same 16-digit rule', async (t) => {
  const v = parseStreamJson(
    '{"gas_limit":1000000000000000,"gas_used":999999999999999,"nonce":-100000000000000,"small":-99999999999999,"list":[9007199254740991,2.5],"s":"1000000000000000"}',
  );
  t.same(v, {
    gas_limit: 1000000000000000n,
    gas_used: 999999999999999,
    nonce: -100000000000000n,
    small: -99999999999999,
    list: [9007199254740991n, 2.5],
    s: '1000000000000000',
  });
  t.equal(parseStreamJson('1000000000000000'), 1000000000000000n, 'a bare top-level one');
  const proto = parseStreamJson('{"__proto__":1000000000000000,"x":1}') as Record<string, unknown>;
  t.equal(Object.getPrototypeOf(proto), Object.prototype, 'a __proto__ key does not set the prototype');
  t.equal(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value, 1000000000000000n);
});

t.test('an integer beyond 2^53 after others were converted: the whole text is parsed again', async (t) => {
  const v = parseStreamJson('{"a":1000000000000000,"b":[1000000000000001,{"c":9007199254740993}]}');
  t.same(v, { a: 1000000000000000n, b: [1000000000000001n, { c: 9007199254740993n }] });
  t.equal(parseStreamJson('9007199254740993'), 9007199254740993n, 'exact, not 2^53');
});

t.test('a real chunk file round-trips; a 16-digit gas limit is a bigint in chunk and block', async (t) => {
  const shard = readFileSync(join(FIXTURE, 'shard_0.json'), 'utf8');
  const v = parseStreamJson(shard) as { chunk: { header: { gas_limit: unknown } } };
  t.same(JSON.parse(stringifyJson(v)), JSON.parse(shard), 'writes back to the same JSON');
  t.equal(v.chunk.header.gas_limit, 1000000000000000n);
  const block = parseStreamJson(readFileSync(join(FIXTURE, 'block.json'), 'utf8')) as {
    chunks: { gas_limit: unknown }[];
  };
  t.equal(typeof block.chunks[0]?.gas_limit, 'bigint', 'a 16-digit gas limit is a bigint either way');
});

t.test('literals beyond 2^53 are matched to their places; anything out of order parses again', async (t) => {
  t.same(
    parseStreamJson(
      '{"s":"9007199254740993","t":9007199254740993,"g":[1000000000000000,18446744073709551615]}',
    ),
    { s: '9007199254740993', t: 9007199254740993n, g: [1000000000000000n, 18446744073709551615n] },
    'strings are not literals; every big integer in its place',
  );
  // An array-index key is walked first: its literal comes second in the text.
  const indexed = parseStreamJson('{"a":9007199254740995,"1":9007199254740993}') as Record<string, unknown>;
  t.equal(indexed.a, 9007199254740995n);
  t.equal(indexed['1'], 9007199254740993n);
  // Two literals that round to the same number: either order would pass the rounding check.
  t.same(parseStreamJson('{"a":9007199254740992,"b":9007199254740993}'), {
    a: 9007199254740992n,
    b: 9007199254740993n,
  });
  t.same(parseStreamJson('[9007199254740993,9007199254740992]'), [9007199254740993n, 9007199254740992n]);
  // A duplicate key: the last value stands, and the literal it hides is not matched to a place.
  t.same(parseStreamJson('{"a":9007199254740993,"b":1,"a":9007199254740995}'), {
    a: 9007199254740995n,
    b: 1,
  });
  t.same(parseStreamJson('{"a":{"x":9007199254740993},"b":2,"a":{"y":9007199254740995}}'), {
    a: { y: 9007199254740995n },
    b: 2,
  });
  // Digits inside a string that look like a value: the string keeps them, the number its own.
  t.same(
    parseStreamJson('{"log":"x:12345678901234567890,","t":9007199254740993,"u":[ 18446744073709551615 ]}'),
    {
      log: 'x:12345678901234567890,',
      t: 9007199254740993n,
      u: [18446744073709551615n],
    },
  );
  // An exponent literal is no integer literal: the marker path leaves it a number.
  t.same(parseStreamJson('{"t":9007199254740993,"e":1e15}'), { t: 9007199254740993n, e: 1e15 });
});
