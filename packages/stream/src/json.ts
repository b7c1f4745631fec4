// Parses stream JSON without losing u64s: nearcore writes `header.timestamp` (~1.7e18) and other
// u64s as bare JSON numbers beyond 2^53. Integer literals of 16 digits or more become bigint (as
// `stringifyJson` writes them back), everything else is JSON.parse's. The literals are set aside
// as strings under a marker holding a random nonce drawn when the process starts (never written
// anywhere), so no string in the input can pass for one.
//
// Most texts need none of that: a chunk's u64s (gas, nonces) stay below 2^53, where JSON.parse is
// exact. So the text is parsed once as it is; if no integer in it reached 2^53, the integers that
// would have been literals of 16 digits or more are made bigint in place, and the marker path (a
// scan of every token, a second copy of the text and a second parse: four to six times the cost on
// a busy chunk) runs only for the texts that need it, such as every block's `header.timestamp`.
// The two agree on the integer literals nearcore writes; an exponent literal like `1e15` would
// become a bigint here and a number there, and nearcore writes none.
import { randomBytes } from 'node:crypto';

const NONCE = randomBytes(8).toString('hex');
const MARKER = `\u0000${NONCE}:`;
const MARKER_TEXT = `\\u0000${NONCE}:`;
// A whole string (escapes included) or a whole number literal, whichever comes first: numbers are
// only ever matched outside strings. Irregexp scans the text several times faster than a loop.
const TOKEN = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d[\d.eE+-]*/g;
const INTEGER = /^-?\d+$/;

export function parseStreamJson(text: string): unknown {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed === 'number') return exactNumber(parsed) ?? parseMarked(text);
  return bigintsInPlace(parsed) ? parsed : parseMarked(text);
}

/** The 16-digit rule on a number parsed exactly; null if it may have been rounded. */
function exactNumber(x: number): number | bigint | null {
  // A literal of 16 characters or more: 16 digits, or a minus and 15.
  if (x < 1e15 && x > -1e14) return x;
  if (!Number.isInteger(x)) return x;
  if (!Number.isSafeInteger(x)) return null;
  return BigInt(x);
}

/**
 * Makes the big integers of a parsed tree bigint; false (the tree half done, to be thrown away) at
 * the first integer at or beyond 2^53, whose literal JSON.parse may have rounded.
 */
function bigintsInPlace(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === 'number') {
        const e = exactNumber(x);
        if (e === null) return false;
        if (e !== x) v[i] = e;
      } else if (typeof x === 'object' && !bigintsInPlace(x)) return false;
    }
    return true;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) {
    const x = o[k];
    if (typeof x === 'number') {
      const e = exactNumber(x);
      if (e === null) return false;
      if (e !== x) setOwn(o, k, e);
    } else if (typeof x === 'object' && !bigintsInPlace(x)) return false;
  }
  return true;
}

function parseMarked(text: string): unknown {
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
    else if (typeof x === 'string' && x.startsWith(MARKER)) setOwn(o, k, restore(x, saved));
  }
  return v;
}

/** Defined, not assigned: a `__proto__` key of parsed JSON is an own property, not the prototype. */
function setOwn(o: Record<string, unknown>, k: string, value: unknown): void {
  Object.defineProperty(o, k, { value, writable: true, enumerable: true, configurable: true });
}
