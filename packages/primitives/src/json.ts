// JSON with exact u64s: nearcore writes block timestamps (~1.7e18 ns) as JSON numbers, beyond 2^53.
// Views carry such values as bigint; this serializer writes them as bare integer literals. A view
// may also embed an already-serialized part (RawJson), e.g. a cached block view, without re-encoding.
//
// Both are written first as marker strings and substituted after JSON.stringify. No byte a contract,
// a signer or a client controls can pass for a marker: a marker starts with U+0000, and every other
// string holding a U+0000 is itself set aside as a marker and written back exactly, so after
// stringify the only strings that start with an escaped U+0000 are this call's own markers. Object
// keys never reach the replacer, so a key shaped like a marker is told apart by what follows it: a
// value is followed by `,`, `}` or `]`, a key by `:`.
//
// Most values hold neither, and a replacer function costs JSON.stringify about half its speed (it is
// called back for every value). So a plain JSON.stringify is tried first: it throws at the first
// bigint, and a RawJson stops it the same way. Without either, its text is the marking path's text:
// that path only sets aside strings holding U+0000 to write them back exactly as JSON.stringify does.
const MARK = '\u0000nl:';
const MARK_RE = /"\\u0000nl:(\d+)"(?=[,}\]]|$)/g;

/** Thrown by RawJson.toJSON to stop a plain JSON.stringify; preallocated, it carries no stack. */
const NEEDS_MARKING: unique symbol = Symbol('needs marking');
/** True while the marking path runs, where a RawJson must reach the replacer as itself. */
let marking = false;

export class RawJson {
  constructor(readonly json: string) {}

  toJSON(): this {
    if (!marking) throw NEEDS_MARKING;
    return this;
  }
}

/**
 * A u64 as a view holds it: a number when a double holds it exactly, else the bigint. Views of
 * nonces and gas hold numbers almost always, and a view without a bigint is written by the plain
 * JSON.stringify: for an access key's view 0.5 µs, against 2 µs when the first attempt stops at a
 * bigint and the marking path writes it. Either way the text is the same digits.
 */
export function u64View(x: bigint): number | bigint {
  return x <= MAX_EXACT ? Number(x) : x;
}

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

export function stringifyJson(value: unknown): string {
  if (value instanceof RawJson) return value.json;
  // The TypeError a bigint makes JSON.stringify throw is dropped here; capturing its stack was most
  // of a failed attempt's cost (an access key's view with a bigint nonce: 5.2 against 2.0 µs).
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return JSON.stringify(value);
  } catch {
    // A bigint or a RawJson somewhere, or a value JSON cannot hold: the marking path writes the
    // first two and throws for the last as JSON.stringify does, with its stack.
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  marking = true;
  try {
    return stringifyMarked(value);
  } finally {
    marking = false;
  }
}

function stringifyMarked(value: unknown): string {
  let parts: string[] | null = null;
  const mark = (json: string): string => {
    parts ??= [];
    parts.push(json);
    return `${MARK}${parts.length - 1}`;
  };
  const s = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return mark(v.toString());
    if (v instanceof RawJson) return mark(v.json);
    if (typeof v === 'string' && v.includes('\u0000')) return mark(JSON.stringify(v));
    return v;
  });
  if (parts === null) return s;
  const saved: string[] = parts;
  return s.replace(MARK_RE, (_m, n: string) => saved[Number(n)]!);
}

// JSON as a list of texts that, joined, are its text. A large value (a busy chunk, a block's state
// changes) joined into one string is megabytes, which V8 allocates in fresh pages of its own; its
// texts can be encoded one after another instead. Each part is serialized on its own, so a part
// holding a bigint sends only itself through the marking path.

/** The texts of `value`'s JSON: one, or undefined where JSON.stringify leaves the value out. */
export function jsonTexts(value: unknown): string[] | undefined {
  const json = stringifyJson(value) as string | undefined;
  return json === undefined ? undefined : [json];
}

/** The texts of an array whose items are these JSON texts. */
export function jsonArrayTexts(items: readonly string[]): string[] {
  const out = ['['];
  items.forEach((item, i) => {
    if (i > 0) out.push(',');
    out.push(item);
  });
  out.push(']');
  return out;
}

/**
 * The texts of an object with these fields in this order, each value given as its texts; a field
 * without texts is left out, as JSON.stringify leaves an undefined value. No name may be an array
 * index (JSON.stringify would move it first).
 */
export function jsonObjectTexts(
  fields: readonly (readonly [string, readonly string[] | undefined])[],
): string[] {
  const out = ['{'];
  for (const [name, texts] of fields) {
    if (texts === undefined) continue;
    out.push(`${out.length === 1 ? '' : ','}${JSON.stringify(name)}:`, ...texts);
  }
  out.push('}');
  return out;
}
