// The answer serializer: exact u64s and embedded JSON, and no string a contract, signer or client
// controls can change an answer's shape.
import {
  accessKeyView,
  jsonArrayTexts,
  jsonObjectTexts,
  jsonTexts,
  RawJson,
  rustDebug,
  stringifyJson,
  u64View,
} from '@nearlite/primitives';
import t from 'tap';

t.test('bigints are bare integers, RawJson is embedded as is', async (t) => {
  t.equal(
    stringifyJson({ timestamp: 1_700_000_000_000_000_123n, block: new RawJson('{"a":1}'), list: [1n, 2n] }),
    '{"timestamp":1700000000000000123,"block":{"a":1},"list":[1,2]}',
  );
  t.equal(stringifyJson(new RawJson('[1]')), '[1]');
  t.equal(stringifyJson(5n), '5');
  t.equal(stringifyJson({ s: 'plain' }), JSON.stringify({ s: 'plain' }), 'no marker, no rewrite');
});

t.test('RawJson is embedded without a bigint beside it; what JSON cannot hold still throws', async (t) => {
  t.equal(
    stringifyJson({ s: 'a\u0000b', part: new RawJson('{"x":[1]}'), n: 2 }),
    '{"s":"a\\u0000b","part":{"x":[1]},"n":2}',
  );
  t.equal(stringifyJson([new RawJson('1'), new RawJson('"t"')]), '[1,"t"]');
  const loop: Record<string, unknown> = { a: 1 };
  loop.self = loop;
  t.throws(() => stringifyJson(loop), TypeError);
  t.throws(() => stringifyJson({ a: 1n, loop }), TypeError, 'also on the marking path');
  t.equal(
    stringifyJson({ after: new RawJson('{}') }),
    '{"after":{}}',
    'a failed call leaves no state behind',
  );
});

const HOSTILE = [
  '\u0000nl:0',
  '\u0000nl:1',
  '\u0000nl:99',
  '\u0000nearlite:bigint:42',
  '\u0000nearlite:raw:0',
  '"\u0000nl:0"',
  '\\u0000nl:0',
  '\\\u0000nl:0',
  'a\u0000b',
  '\u0000',
  '}\u0000nl:0{',
];

t.test('hostile strings come back exactly, wherever they stand', async (t) => {
  for (const s of HOSTILE) {
    const value = {
      logs: [s, `${s}${s}`],
      [s]: s,
      nested: { [s]: [s, 7n, new RawJson('{"x":2}')] },
      big: 9007199254740993n,
    };
    const out = stringifyJson(value);
    const back = JSON.parse(out) as Record<string, unknown>;
    t.same(back.logs, [s, `${s}${s}`], `logs ${JSON.stringify(s)}`);
    t.equal(back[s], s, `a key ${JSON.stringify(s)} keeps its value`);
    t.same((back.nested as Record<string, unknown>)[s], [s, 7, { x: 2 }], 'nested parts stay in place');
    t.match(out, /"big":9007199254740993}$/, 'the bigint is still exact');
  }
});

t.test('a hostile key cannot pull an embedded part out of place', async (t) => {
  const value = { '\u0000nl:0': 1n, b: new RawJson('{"raw":true}') };
  t.same(JSON.parse(stringifyJson(value)), { '\u0000nl:0': 1, b: { raw: true } });
});

t.test('an object written field by field is the same text as written whole', async (t) => {
  const fields: [string, unknown][] = [
    ['author', 'a\u0000b'],
    ['header', { gas_limit: 1000000000000000n, height: 5, hash: 'x' }],
    ['skipped', undefined],
    ['transactions', [{ nonce: 12n, memo: '"\u0000nl:0"' }, new RawJson('{"raw":1}')]],
    ['receipts', []],
    ['"quoted" name', null],
  ];
  const stringifyFields = (f: [string, unknown][]) =>
    jsonObjectTexts(f.map(([name, value]) => [name, jsonTexts(value)])).join('');
  t.equal(stringifyFields(fields), stringifyJson(Object.fromEntries(fields)));
  t.equal(stringifyFields([]), '{}');
  t.equal(stringifyFields([['only', undefined]]), '{}');
  const items = [{ a: 1n }, 'x', null];
  t.equal(jsonArrayTexts(items.map((v) => stringifyJson(v))).join(''), stringifyJson(items), 'an array');
  t.equal(jsonArrayTexts([]).join(''), '[]');
});

t.test(
  'a u64 in a view is a number while a double holds it exactly, and writes the same digits',
  async (t) => {
    const max = 2n ** 64n - 1n;
    for (const x of [0n, 1n, 223_182_562_500n, 2n ** 53n - 1n]) {
      t.equal(typeof u64View(x), 'number', `${x}`);
      t.equal(stringifyJson({ nonce: u64View(x) }), stringifyJson({ nonce: x }));
    }
    for (const x of [2n ** 53n, 2n ** 53n + 1n, max]) {
      t.equal(u64View(x), x, `${x} stays exact`);
      t.equal(stringifyJson({ nonce: u64View(x) }), `{"nonce":${x}}`);
    }
    t.same(accessKeyView({ nonce: 93_085_140_000_000n, permission: { kind: 'FullAccess' } }), {
      nonce: 93_085_140_000_000,
      permission: 'FullAccess',
    });
    t.equal(
      stringifyJson(accessKeyView({ nonce: max, permission: { kind: 'FullAccess' } })),
      `{"nonce":${max},"permission":"FullAccess"}`,
    );
  },
);

t.test("rustDebug prints nearcore's enums and strings as Rust's {:?} does", async (t) => {
  t.equal(rustDebug({ MethodResolveError: 'MethodNotFound' }), 'MethodResolveError(MethodNotFound)');
  t.equal(
    rustDebug({ CompilationError: { CodeDoesNotExist: { account_id: 'a.near' } } }),
    'CompilationError(CodeDoesNotExist { account_id: "a.near" })',
  );
  // core::fmt's Debug for str: \0 \t \r \n \\ \" by name; single quotes and printable chars as they
  // are; controls, format chars, separators (a space aside) and grapheme extenders as \u{…}.
  const cases: [string, string][] = [
    ['it\'s "q" \\ \t\r\n\0', '"it\'s \\"q\\" \\\\ \\t\\r\\n\\0"'],
    ['\u001b[0m', '"\\u{1b}[0m"'],
    ['a\u2028b\u2029c\u0085', '"a\\u{2028}b\\u{2029}c\\u{85}"'],
    ['soft\u00adhyphen', '"soft\\u{ad}hyphen"'],
    ['e\u0301', '"e\\u{301}"'],
    ['\ufeffbom', '"\\u{feff}bom"'],
    ['no\u00a0break', '"no\\u{a0}break"'],
    ['你好 😀 ü', '"你好 😀 ü"'],
    ['\ue000', '"\\u{e000}"'],
  ];
  for (const [s, want] of cases)
    t.equal(rustDebug({ GuestPanic: { panic_msg: s } }), `GuestPanic { panic_msg: ${want} }`, want);
  // A String reading like a variant name is still a String: quoted in a struct's field, and as
  // ExecutionError's payload; a unit variant in a tuple variant is not.
  t.equal(
    rustDebug({ HostError: { GuestPanic: { panic_msg: 'Unauthorized' } } }),
    'HostError(GuestPanic { panic_msg: "Unauthorized" })',
  );
  t.equal(
    rustDebug({ HostError: { Deprecated: { method_name: 'Abort' } } }),
    'HostError(Deprecated { method_name: "Abort" })',
  );
  t.equal(rustDebug({ ExecutionError: 'Paused' }), 'ExecutionError("Paused")');
  t.equal(rustDebug({ HostError: 'IntegerOverflow' }), 'HostError(IntegerOverflow)');
  t.equal(rustDebug({ WasmTrap: 'Unreachable' }), 'WasmTrap(Unreachable)');
});
