// Why a body is not JSON, as nearcore says it. The serde_json texts are serde_json's own test
// vectors (tests/test.rs: test_parse_null, _bool, _number_errors, _string, _list, _object,
// test_multiline_errors, test_stack_overflow, test_control_character_search), each a top-level
// value, where serde_path_to_error adds no path (but one, marked). The paths follow serde_path_to_error (src/de.rs,
// src/path.rs): a value's error names the value's path, an array's errors between elements the
// array, an object's errors before a key is read `?` under the object, a colon's the object; a path
// of `?` alone, or an empty one, is not printed.

import t from 'tap';
import { jsonSyntaxError } from '../src/json_syntax.js';

const bytes = (s: string | readonly number[]) =>
  typeof s === 'string' ? Buffer.from(s) : Uint8Array.from(s);

t.test("serde_json's own error vectors", async (t) => {
  const vectors: [string | number[], string][] = [
    // test_parse_null, test_parse_bool
    ['n', 'EOF while parsing a value at line 1 column 1'],
    ['nul', 'EOF while parsing a value at line 1 column 3'],
    ['nulla', 'trailing characters at line 1 column 5'],
    ['t', 'EOF while parsing a value at line 1 column 1'],
    ['truz', 'expected ident at line 1 column 4'],
    ['f', 'EOF while parsing a value at line 1 column 1'],
    ['faz', 'expected ident at line 1 column 3'],
    ['truea', 'trailing characters at line 1 column 5'],
    ['falsea', 'trailing characters at line 1 column 6'],
    // test_parse_number_errors
    ['+', 'expected value at line 1 column 1'],
    ['.', 'expected value at line 1 column 1'],
    ['-', 'EOF while parsing a value at line 1 column 1'],
    ['00', 'invalid number at line 1 column 2'],
    ['0x80', 'trailing characters at line 1 column 2'],
    ['\\0', 'expected value at line 1 column 1'],
    ['.0', 'expected value at line 1 column 1'],
    ['0.', 'EOF while parsing a value at line 1 column 2'],
    ['1.', 'EOF while parsing a value at line 1 column 2'],
    ['1.a', 'invalid number at line 1 column 3'],
    ['1.e1', 'invalid number at line 1 column 3'],
    ['1e', 'EOF while parsing a value at line 1 column 2'],
    ['1e+', 'EOF while parsing a value at line 1 column 3'],
    ['1a', 'trailing characters at line 1 column 2'],
    ['100e777777777777777777777777777', 'number out of range at line 1 column 14'],
    ['-100e777777777777777777777777777', 'number out of range at line 1 column 15'],
    [`1${'0'.repeat(309)}`, 'number out of range at line 1 column 310'],
    [`1${'0'.repeat(300)}.0e9`, 'number out of range at line 1 column 305'],
    [`1${'0'.repeat(300)}e9`, 'number out of range at line 1 column 303'],
    // test_parse_string
    ['"', 'EOF while parsing a string at line 1 column 1'],
    ['"lol', 'EOF while parsing a string at line 1 column 4'],
    ['"lol"a', 'trailing characters at line 1 column 6'],
    ['"\\uD83C\\uFFFF"', 'lone leading surrogate in hex escape at line 1 column 13'],
    ['"\n"', 'control character (\\u0000-\\u001F) found while parsing a string at line 2 column 0'],
    ['"\x1F"', 'control character (\\u0000-\\u001F) found while parsing a string at line 1 column 2'],
    ['"\t\n\r"', 'control character (\\u0000-\\u001F) found while parsing a string at line 1 column 2'],
    [[0x22, 159, 146, 150, 0x22], 'invalid unicode code point at line 1 column 5'],
    [[0x22, 0x5c, 0x6e, 159, 146, 150, 0x22], 'invalid unicode code point at line 1 column 7'],
    [[0x22, 0x5c, 0x75, 48, 48, 51], 'EOF while parsing a string at line 1 column 6'],
    [[0x22, 0x5c, 0x75, 250, 48, 51, 48, 0x22], 'invalid escape at line 1 column 7'],
    [[0x22, 0x5c, 0x75, 48, 250, 51, 48, 0x22], 'invalid escape at line 1 column 7'],
    [[0x22, 0x5c, 0x75, 48, 48, 250, 48, 0x22], 'invalid escape at line 1 column 7'],
    [[0x22, 0x5c, 0x75, 48, 48, 51, 250, 0x22], 'invalid escape at line 1 column 7'],
    // test_parse_list
    ['[', 'EOF while parsing a list at line 1 column 1'],
    ['[ ', 'EOF while parsing a list at line 1 column 2'],
    ['[1', 'EOF while parsing a list at line 1 column 2'],
    ['[1,', 'EOF while parsing a value at line 1 column 3'],
    ['[1,]', 'trailing comma at line 1 column 4'],
    ['[1 2]', 'expected `,` or `]` at line 1 column 4'],
    ['[]a', 'trailing characters at line 1 column 3'],
    // test_parse_object
    ['{', 'EOF while parsing an object at line 1 column 1'],
    ['{ ', 'EOF while parsing an object at line 1 column 2'],
    ['{1', 'key must be a string at line 1 column 2'],
    ['{ "a"', 'EOF while parsing an object at line 1 column 5'],
    ['{"a"', 'EOF while parsing an object at line 1 column 4'],
    ['{"a" ', 'EOF while parsing an object at line 1 column 5'],
    ['{"a" 1', 'expected `:` at line 1 column 6'],
    // The one vector inside a value: serde_path_to_error puts its key first.
    ['{"a":', 'a: EOF while parsing a value at line 1 column 5'],
    ['{"a":1', 'EOF while parsing an object at line 1 column 6'],
    ['{"a":1 1', 'expected `,` or `}` at line 1 column 8'],
    ['{"a":1,', 'EOF while parsing a value at line 1 column 7'],
    ['{}a', 'trailing characters at line 1 column 3'],
    // test_multiline_errors, test_stack_overflow
    ['{\n  "foo":\n "bar"', 'EOF while parsing an object at line 3 column 6'],
    ['['.repeat(129), `${'[0]'.repeat(127)}: recursion limit exceeded at line 1 column 128`],
  ];
  for (const [body, expected] of vectors) {
    t.equal(jsonSyntaxError(bytes(body)), expected, JSON.stringify(body));
  }
  // test_control_character_search: wherever the newline falls.
  for (let n = 0; n < 16; n++) {
    for (let m = 0; m < 16; m++) {
      t.equal(
        jsonSyntaxError(bytes(`"${' '.repeat(n)}\n${' '.repeat(m)}"`)),
        'control character (\\u0000-\\u001F) found while parsing a string at line 2 column 0',
      );
    }
  }
});

t.test('what serde_json reads, it reads without complaint', async (t) => {
  const fine = [
    'null',
    ' true ',
    '[]',
    '[ ]',
    '{ "a" : 3 , "b" : [1, -2.5e-3, 0, "\\u12ab\\uD83C\\uDF95"] }',
    '[1, 2]\t \n',
    `${'['.repeat(127)}${']'.repeat(127)}`,
    '1e400'.replace('400', '-400'),
    '0e99999999999999',
    '-1e-99999999999999',
    '"é😀"',
  ];
  for (const body of fine) t.equal(jsonSyntaxError(bytes(body)), null, body);
});

t.test('the path of the value being read comes first', async (t) => {
  const request = (rest: string) => `{"jsonrpc":"2.0","id":1,"method":"block",${rest}`;
  const column = (rest: string, at: string) => request(rest).indexOf(at) + 1;
  const cases: [string, string][] = [
    // A value's own error: its key.
    [
      request('"params":{"block_id":tru}}'),
      `params.block_id: expected ident at line 1 column ${column('"params":{"block_id":tru}}', 'u}') + 1}`,
    ],
    [
      request('"params":[1.e5]}'),
      `params[0]: invalid number at line 1 column ${column('"params":[1.e5]}', 'e5')}`,
    ],
    [
      request('"params":{"finality":"final\\x"}}'),
      `params.finality: invalid escape at line 1 column ${column('"params":{"finality":"final\\x"}}', 'x"')}`,
    ],
    // Between an array's elements: the array.
    [
      request('"params":[1 2]}'),
      `params: expected \`,\` or \`]\` at line 1 column ${column('"params":[1 2]}', '2]')}`,
    ],
    [
      request('"params":[[1,]]}'),
      `params[0]: trailing comma at line 1 column ${column('"params":[[1,]]}', ']]')}`,
    ],
    // Before an object's key is read: `?` under the object.
    [
      request('"params":{"a":1,}}'),
      `params.?: trailing comma at line 1 column ${column('"params":{"a":1,}}', '}}')}`,
    ],
    [
      request('"params":{1:2}}'),
      `params.?: key must be a string at line 1 column ${column('"params":{1:2}}', '1:')}`,
    ],
    // Its colon: the object.
    [
      request('"params":{"a" 1}}'),
      `params: expected \`:\` at line 1 column ${column('"params":{"a" 1}}', '1}')}`,
    ],
    // The top-level object's own errors name no path.
    [request('"params":[]'), `EOF while parsing an object at line 1 column ${request('"params":[]').length}`],
    [request('"params":[]}}'), `trailing characters at line 1 column ${request('"params":[]}}').length}`],
    [request('"params" []}'), `expected \`:\` at line 1 column ${column('"params" []}', '[]')}`],
  ];
  for (const [body, expected] of cases) t.equal(jsonSyntaxError(bytes(body)), expected, body);
  // A key is printed as read, escapes resolved; an index in brackets without a dot.
  t.equal(
    jsonSyntaxError(bytes('{"a\\"b":[{"c":[0,{"d":-}]}]}')),
    'a"b[0].c[1].d: invalid number at line 1 column 24',
  );
});

t.test('a hostile body costs one linear walk', async (t) => {
  t.equal(
    jsonSyntaxError(bytes(`{"a":"${'x'.repeat(5_000_000)}`)),
    'a: EOF while parsing a string at line 1 column 5000006',
  );
  t.equal(
    jsonSyntaxError(bytes(`[${'1.0,'.repeat(1_000_000)}]`)),
    `trailing comma at line 1 column ${4_000_002}`,
  );
  t.equal(
    jsonSyntaxError(bytes(`[1e${'9'.repeat(1_000_000)}]`)),
    '[0]: number out of range at line 1 column 13',
  );
});

t.test('it refuses exactly what JSON.parse refuses, on mutated requests', async (t) => {
  // Both read RFC 8259 JSON; they differ only on depth, lone surrogates and infinite numbers, which
  // these mutations do not reach. A seeded generator keeps the run the same every time.
  let seed = 0x2545f491;
  const random = (n: number) => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  const alphabet = '{}[],:"\\ \n0123456789eE.+-tfnulax';
  const requests = [
    '{"jsonrpc":"2.0","id":"dontcare","method":"query","params":{"request_type":"view_account","finality":"final","account_id":"a.near"}}',
    '{"jsonrpc":"2.0","id":1,"method":"block","params":[12, {"b":[true,false,null,-0.5e+3]}]}',
  ];
  let refusedBoth = 0;
  for (let n = 0; n < 4000; n++) {
    let text = requests[n % requests.length]!;
    for (let edits = 1 + random(3); edits > 0; edits--) {
      const at = random(text.length + 1);
      const c = alphabet[random(alphabet.length)]!;
      const kind = random(3);
      text = text.slice(0, at) + (kind === 2 ? '' : c) + text.slice(kind === 0 ? at : at + 1);
    }
    if (text.includes('\\u')) continue;
    let parses = true;
    try {
      JSON.parse(text);
    } catch {
      parses = false;
    }
    const error = jsonSyntaxError(bytes(text));
    if (parses !== (error === null))
      t.fail(`${text}: JSON.parse ${parses ? 'takes' : 'refuses'} it, the walk says ${error}`);
    if (!parses) refusedBoth++;
  }
  t.ok(refusedBoth > 1000, `${refusedBoth} mutated bodies refused by both`);
});
