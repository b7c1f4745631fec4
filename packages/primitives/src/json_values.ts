// The JSON types nearcore's views use for objects and integers, as a reader that keeps big integers
// exact (`parseStreamJson`: a bigint beyond a double's precision) sees them.

export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A u64 written as a JSON number. */
export function isU64Json(v: unknown): v is number | bigint {
  return (
    (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) ||
    (typeof v === 'bigint' && v >= 0n && v >> 64n === 0n)
  );
}

const DECIMAL = /^(0|[1-9]\d{0,38})$/;

/** An unsigned integer of `bits` written as a decimal string (serde's `dec_format`: balances). */
export function isDecimalText(v: unknown, bits = 128n): v is string {
  return typeof v === 'string' && DECIMAL.test(v) && BigInt(v) >> bits === 0n;
}
