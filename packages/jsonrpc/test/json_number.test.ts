// Numbers as serde_json reads and writes them. The expected texts are serde_json's and serde's own:
// serde_json tests/test.rs `test_write_f64`, the ryu crate's layout (what serde_json writes an f64
// with), serde's `Unexpected::Float` (Rust's Display of the f64 and `.0` without a decimal point),
// and serde_json's parser (de.rs `parse_number`: a u64, a negative i64, else an f64, `-0` included).

import { JsonF64, ryuText } from '@nearlite/primitives';
import t from 'tap';
import { exactNumber, serdeFloatText } from '../src/json_number.js';

t.test('an f64 is written as serde_json writes it', async (t) => {
  // serde_json tests/test.rs test_write_f64.
  const serdeJson: [number, string][] = [
    [3.0, '3.0'],
    [3.1, '3.1'],
    [-1.5, '-1.5'],
    [0.5, '0.5'],
    [-Number.MAX_VALUE, '-1.7976931348623157e308'],
    [Number.MAX_VALUE, '1.7976931348623157e308'],
    [Number.EPSILON, '2.220446049250313e-16'],
  ];
  // ryu's layout (src/pretty/mod.rs): decimal up to 16 integer digits, `0.000ddd` down to 1e-5,
  // otherwise an exponent without a plus sign.
  const ryu: [number, string][] = [
    [0, '0.0'],
    [-0, '-0.0'],
    [100, '100.0'],
    [2 ** 53, '9007199254740992.0'],
    [1e16, '1e16'],
    [1e30, '1e30'],
    [1e-30, '1e-30'],
    [0.00001, '0.00001'],
    [0.000001, '1e-6'],
    [5e-324, '5e-324'],
    [2 ** 64, '1.8446744073709552e19'],
    [Math.PI, '3.141592653589793'],
  ];
  for (const [x, text] of [...serdeJson, ...ryu]) t.equal(ryuText(x), text, text);
});

t.test("an f64 is named in an error as serde's Unexpected::Float names it", async (t) => {
  const cases: [number, string][] = [
    [1.5, '1.5'],
    [95, '95.0'],
    [1e10, '10000000000.0'],
    [1e-7, '0.0000001'],
    [-0, '-0.0'],
    [2 ** 64, '18446744073709552000.0'],
    [Number.MAX_VALUE, `17976931348623157${'0'.repeat(292)}.0`],
  ];
  for (const [x, text] of cases) t.equal(serdeFloatText(x), text, text);
});

t.test("each literal is read as serde_json's parser reads it", async (t) => {
  // A double holds these exactly as integers: nothing to keep.
  for (const literal of ['0', '1', '-1', '9007199254740991', '-9007199254740991', '123456789012345']) {
    t.equal(exactNumber(literal), null, literal);
  }
  // Integers a double cannot hold, within u64 or i64: exact.
  for (const literal of [
    '9007199254740993',
    '18446744073709551615',
    '-9007199254740993',
    '-9223372036854775808',
  ]) {
    t.equal(exactNumber(literal), BigInt(literal), literal);
  }
  // Floats: a fraction or an exponent, `-0`, and an integer beyond u64 or i64.
  const floats: [string, string][] = [
    ['1.0', '1.0'],
    ['5.0', '5.0'],
    ['1e2', '100.0'],
    ['1E2', '100.0'],
    ['1.50', '1.5'],
    ['-0', '-0.0'],
    ['-0.0', '-0.0'],
    ['18446744073709551616', '1.8446744073709552e19'],
    ['-9223372036854775809', '-9.223372036854776e18'],
  ];
  for (const [literal, text] of floats) {
    const n = exactNumber(literal);
    t.ok(n instanceof JsonF64, `${literal} is a float`);
    t.equal((n as JsonF64).json, text, `${literal} is written back as ${text}`);
  }
  // Not a JSON number: left for JSON.parse to refuse.
  for (const literal of ['-', '1-2', '01', '1.', '.5', '1e']) t.equal(exactNumber(literal), null, literal);
});
