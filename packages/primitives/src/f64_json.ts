// An f64 as nearcore's serde_json holds it. serde_json writes one with the ryu crate: always with a
// point or an exponent (`0.0`, `1.0`, `1e-6`), where JSON.stringify writes `0`, `1` and `0.000001`.
// The few f64s of nearcore's views (a chunk's congestion level, ShardCongested's) and the floats a
// request's body holds (the RPC's body parser) are JsonF64s, written as serde_json writes them.
import { RawJson } from './json.js';

/** The shortest digits of |x| and the power of ten of the first: 1234.5 is ["12345", 3]. */
export function shortestDigits(x: number): [string, number] {
  const s = Math.abs(x).toExponential();
  const e = s.indexOf('e');
  return [s.slice(0, e).replace('.', ''), Number(s.slice(e + 1))];
}

/** serde_json's text for a finite f64 (the ryu crate's layout): `1.0`, `0.001`, `1e-7`, `1.5e20`. */
export function ryuText(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [digits, point] = shortestDigits(x);
  const n = digits.length;
  const kk = point + 1;
  if (kk >= n && kk <= 16) return `${sign}${digits}${'0'.repeat(kk - n)}.0`;
  if (kk > 0 && kk <= 16) return `${sign}${digits.slice(0, kk)}.${digits.slice(kk)}`;
  if (kk > -5 && kk <= 0) return `${sign}0.${'0'.repeat(-kk)}${digits}`;
  const mantissa = n === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  return `${sign}${mantissa}e${kk - 1}`;
}

/** An f64, written by `stringifyJson` as serde_json writes it. */
export class JsonF64 extends RawJson {
  constructor(readonly value: number) {
    super(ryuText(value));
  }
}
