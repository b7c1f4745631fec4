// Parses stream JSON without losing u64s: nearcore writes `header.timestamp` (~1.7e18) and other
// u64s as bare JSON numbers beyond 2^53. Integer literals of 16 digits or more become bigint (as
// `stringifyJson` writes them back), everything else is JSON.parse's. The literals are set aside
// as strings under a marker holding a random nonce drawn when the process starts (never written
// anywhere), so no string in the input can pass for one.
import { randomBytes } from 'node:crypto';

const NONCE = randomBytes(8).toString('hex');
const MARKER = `\u0000${NONCE}:`;
const MARKER_TEXT = `\\u0000${NONCE}:`;
// A whole string (escapes included) or a whole number literal, whichever comes first: numbers are
// only ever matched outside strings. Irregexp scans the text several times faster than a loop.
const TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d[\d.eE+-]*/g;
const INTEGER = /^-?\d+$/;

export function parseStreamJson(text: string): unknown {
  let big: string[] | null = null;
  let out = '';
  let last = 0;
  const token = new RegExp(TOKEN);
  for (let m = token.exec(text); m !== null; m = token.exec(text)) {
    const literal = m[0];
    if (literal.length < 16 || literal.charCodeAt(0) === 0x22 || !INTEGER.test(literal)) continue;
    big ??= [];
    out += `${text.slice(last, m.index)}"${MARKER_TEXT}${big.length}"`;
    big.push(literal);
    last = m.index + literal.length;
  }
  if (big === null) return JSON.parse(text);
  out += text.slice(last);
  return restore(JSON.parse(out), big);
}

// A walk over the parsed tree puts the bigints back: a JSON.parse reviver does the same at about
// twice the cost, being called for every value.
function restore(v: unknown, saved: readonly string[]): unknown {
  if (typeof v === 'string') return v.startsWith(MARKER) ? BigInt(saved[Number(v.slice(MARKER.length))]!) : v;
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === 'object') restore(x, saved);
      else if (typeof x === 'string' && x.startsWith(MARKER)) v[i] = restore(x, saved);
    }
    return v;
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const x = o[k];
    if (typeof x === 'object') restore(x, saved);
    // Defined, not assigned: a `__proto__` key of parsed JSON is an own property.
    else if (typeof x === 'string' && x.startsWith(MARKER))
      Object.defineProperty(o, k, {
        value: restore(x, saved),
        writable: true,
        enumerable: true,
        configurable: true,
      });
  }
  return v;
}
