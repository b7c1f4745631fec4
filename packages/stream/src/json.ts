// Parses stream JSON without losing u64s: nearcore writes `header.timestamp` (~1.7e18) and other
// u64s as bare JSON numbers beyond 2^53. Integer literals of 16 digits or more become bigint (as
// `stringifyJson` writes them back), everything else is JSON.parse's. The literals are set aside
// as strings under a marker holding a random nonce drawn when the process starts (never written
// anywhere), so no string in the input can pass for one.
//
// Most texts need none of that: a chunk's u64s (gas, nonces) stay below 2^53, where JSON.parse is
// exact. So the text is parsed once as it is, noting where the integers of 16 digits or more are.
// If none reached 2^53 they are made bigint in place. If some did (every block's
// `header.timestamp`), the text's integer literals of 16 digits or more are scanned and matched to
// those places in order, each literal checked to round to the number parsed there, and the ones
// beyond 2^53 get their exact value. Only where the literals and the places do not match one to one
// (an exponent literal like `1e15`, a duplicate key, an array-index key; nearcore writes none of
// them) does the marker path run: a second copy of the text and a second parse.
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
  const sites: Site[] = [];
  const unsafe = collectBig(parsed, sites);
  if (unsafe === 0) {
    for (const site of sites) setSite(site, BigInt(site.value));
    return parsed;
  }
  return exactFromLiterals(text, sites, unsafe) ? parsed : parseMarked(text);
}

/** The 16-digit rule on a number parsed exactly; null if it may have been rounded. */
function exactNumber(x: number): number | bigint | null {
  if (!isBig(x)) return x;
  if (!Number.isSafeInteger(x)) return null;
  return BigInt(x);
}

/** An integer whose literal has 16 characters or more: 16 digits, or a minus and 15. */
function isBig(x: number): boolean {
  return (x >= 1e15 || x <= -1e14) && Number.isInteger(x);
}

/** A big integer's place in the parsed tree (an array and index, or an object and key). */
interface Site {
  readonly holder: unknown[] | Record<string, unknown>;
  readonly key: number | string;
  readonly value: number;
}

function setSite(site: Site, v: bigint): void {
  if (typeof site.key === 'number') (site.holder as unknown[])[site.key] = v;
  else setOwn(site.holder as Record<string, unknown>, site.key, v);
}

/** Notes every big integer under `v` in walk order; returns how many are beyond 2^53. */
function collectBig(v: unknown, sites: Site[]): number {
  if (typeof v !== 'object' || v === null) return 0;
  let unsafe = 0;
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) unsafe += note(v, i, v[i], sites);
  else {
    const o = v as Record<string, unknown>;
    for (const k in o) unsafe += note(o, k, o[k], sites);
  }
  return unsafe;
}

/** `collectBig` for one value at `holder[key]`. */
function note(holder: Site['holder'], key: number | string, x: unknown, sites: Site[]): number {
  if (typeof x === 'object') return collectBig(x, sites);
  if (typeof x !== 'number' || !isBig(x)) return 0;
  sites.push({ holder, key, value: x });
  return Number.isSafeInteger(x) ? 0 : 1;
}

// An integer literal of 15 digits or more where a value starts. It also finds digits inside a string
// that follow a `:`, `,` or `[` there, but never misses a literal, so a string can only add
// literals, which makes the count differ.
const BIG_LITERAL = /[:,[]\s*(-?\d{15,})(?![\d.eE])/g;

/**
 * Gives each site the value of the text's integer literal of 16 characters or more at the same
 * position in order; false, with nothing changed, unless the literals match the sites one to one.
 * (A literal at the very start of the text is no site: a bare number never gets here.)
 *
 * The walk meets values in text order but for array-index keys (walked first) and duplicate keys
 * (walked where the first one stood, with the last one's value). Either makes a literal and a site
 * disagree, which is caught here: a literal that is not in the tree makes the counts differ, and a
 * site out of text order meets a literal that does not round to its number. The one disorder that
 * would pass is two literals that round to the same number trading places, so two sites beyond
 * 2^53 with the same number also refuse (below 2^53 equal numbers have one literal).
 */
function exactFromLiterals(text: string, sites: readonly Site[], unsafe: number): boolean {
  if (unsafe > 1) {
    const seen = new Set<number>();
    for (const site of sites) {
      if (Number.isSafeInteger(site.value)) continue;
      if (seen.has(site.value)) return false;
      seen.add(site.value);
    }
  }
  const literals: string[] = [];
  const found = new RegExp(BIG_LITERAL);
  for (let m = found.exec(text); m !== null; m = found.exec(text)) {
    const literal = m[1]!;
    if (literal.length < 16) continue;
    const site = sites[literals.length];
    if (site === undefined || Number(literal) !== site.value) return false;
    literals.push(literal);
  }
  if (literals.length !== sites.length) return false;
  for (let i = 0; i < sites.length; i++) setSite(sites[i]!, BigInt(literals[i]!));
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
