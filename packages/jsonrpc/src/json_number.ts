// JSON numbers as nearcore's serde_json reads them. serde_json keeps three kinds: an unsigned
// integer (u64), a negative one (i64) and a float (f64, for any literal with a fraction or an
// exponent, for `-0`, and for an integer beyond both). JSON.parse keeps one, a double, so on its
// own it would take `5.0` as the height 5 (serde refuses a float where it wants a u64) and round
// 9007199254740993 (serde keeps it exact). The body parser hands these numbers on as their own
// kinds: a float as a JsonF64, an integer a double cannot hold as a bigint.
import { JsonF64, shortestDigits, U64_MAX } from '@nearlite/primitives';

const I64_MIN = -(1n << 63n);
const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/** A JSON number; its fraction or exponent, if any, makes it a float. */
const LITERAL = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * What serde_json makes of a number literal: null when a double holds it exactly as an integer, or
 * when it is no JSON number at all (JSON.parse then refuses the body).
 */
export function exactNumber(literal: string): JsonF64 | bigint | null {
  const m = LITERAL.exec(literal);
  if (m === null) return null;
  if (m[1] !== undefined || m[2] !== undefined || literal === '-0') return new JsonF64(Number(literal));
  const digits = literal.length - (literal.charCodeAt(0) === 0x2d ? 1 : 0);
  // 15 digits never reach 2^53, and 21 are beyond u64 and i64 (a bigint is not made of a hostile
  // body's million digits).
  if (digits <= 15) return null;
  if (digits > 20) return new JsonF64(Number(literal));
  const n = BigInt(literal);
  if (n > U64_MAX || n < I64_MIN) return new JsonF64(Number(literal));
  if (n <= MAX_EXACT && n >= -MAX_EXACT) return null;
  return n;
}

/**
 * serde's `Unexpected::Float` text: Rust's Display of the f64, which never uses an exponent, and
 * `.0` after it when it has no decimal point.
 */
export function serdeFloatText(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [digits, point] = shortestDigits(x);
  if (point < 0) return `${sign}0.${'0'.repeat(-point - 1)}${digits}`;
  if (point + 1 >= digits.length) return `${sign}${digits}${'0'.repeat(point + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, point + 1)}.${digits.slice(point + 1)}`;
}
