// nearcore's views hold a few f64s (a chunk's congestion level, ShardCongested's), which serde_json
// writes with the ryu crate: always with a point or an exponent (`0.0`, `1.0`, `1e-6`), where
// JSON.stringify writes `0`, `1` and `0.000001`. A view holds such a number as its text.
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

/** An f64 of a view, written as serde_json writes it. */
export function f64Json(x: number): RawJson {
  return new RawJson(ryuText(x));
}
