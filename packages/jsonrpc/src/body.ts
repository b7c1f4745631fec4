// Request-body rules of nearcore's axum `Json` extractor: the content type must be JSON (415
// otherwise), the text must parse (400 with serde_json's plain-text reason otherwise), and, like
// serde_json, nesting 128 levels deep is refused before parsing, so a hostile body of ten megabytes
// of brackets costs one linear scan instead of seconds of JSON.parse and a stack overflow on reply.
// The same scan finds the number literals serde_json reads otherwise than a double (json_number.ts),
// and the `\u` escapes of surrogates, which JSON.parse keeps even unpaired. A body with one, or one
// that is refused, is walked a second time, slower, as serde_json reads it (primitives'
// json_syntax.ts): that walk alone decides what serde_json refuses, and says why.
import { randomBytes } from 'node:crypto';
import { JsonF64, jsonSyntaxError } from '@nearlite/primitives';
import { exactNumber } from './json_number.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
/** The deepest nesting serde_json reads: it refuses the 128th level. */
const MAX_DEPTH = 127;

export type BodyResult =
  | {
      readonly ok: true;
      readonly value: unknown;
      /**
       * The commas between the top-level container's members as written. An object parsed with no
       * more keys than this named one twice (JSON.parse keeps the last), which nearcore's `Request`,
       * a derived struct, refuses: such a body is not a request to it (dispatch.ts).
       */
      readonly topLevelCommas: number;
    }
  | { readonly ok: false; readonly status: 400 | 415; readonly text: string };

export const WRONG_CONTENT_TYPE = 'Expected request with `Content-Type: application/json`';
const BAD_JSON = 'Failed to parse the request body as JSON: ';

export function isJsonContentType(type: string | undefined): boolean {
  return type !== undefined && JSON_TYPE.test(type);
}

/** A number literal that JSON.parse would read otherwise than serde_json (see json_number.ts). */
interface ExactNumber {
  readonly start: number;
  readonly end: number;
  readonly value: JsonF64 | bigint;
}

interface Scan {
  /** Nesting serde_json refuses: JSON.parse is then not asked at all. */
  readonly tooDeep: boolean;
  /**
   * A `\u` escape of a surrogate: JSON.parse keeps a lone one, serde_json (reading strings as UTF-8)
   * refuses it, and whether it is paired is left to the serde_json walk (json_syntax.ts).
   */
  readonly surrogates: boolean;
  readonly numbers: readonly ExactNumber[];
  /** Commas between the top-level container's members: an object's member count less one. */
  readonly topLevelCommas: number;
}

/** Whether the `\u` escape at `i` names a surrogate (D800–DFFF). */
function isSurrogateEscape(text: string, i: number): boolean {
  const d = text.charCodeAt(i + 2) | 0x20;
  const x = text.charCodeAt(i + 3) | 0x20;
  return d === 0x64 && ((x >= 0x38 && x <= 0x39) || (x >= 0x61 && x <= 0x66));
}

const NO_NUMBERS: readonly ExactNumber[] = [];
const TOO_DEEP: Scan = { tooDeep: true, surrogates: false, numbers: NO_NUMBERS, topLevelCommas: 0 };

/**
 * How many odd literals a body keeps exact: no request needs more than a few, and a hostile body of
 * ten megabytes of `1.0,` would otherwise hold millions of them (and their markers) at once. Past
 * this count they are read as JSON.parse reads them, whose cost that body had before.
 */
const MAX_EXACT_NUMBERS = 1024;

function isNumberChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;
}

/**
 * One pass over the text: outside its strings the depth of its brackets (past MAX_DEPTH it stops)
 * and the number literals a double would not read as serde_json does, inside them the `\u` escapes
 * of surrogates. Most bodies have none of these: a literal of up to 15 digits without a fraction
 * or an exponent is passed over without a copy.
 */
function scan(text: string): Scan {
  let depth = 0;
  let topLevelCommas = 0;
  let numbers: ExactNumber[] | null = null;
  let surrogates = false;
  // The next backslash at or after where a string's search starts: most bodies have none, and
  // their strings are passed over with one indexOf each.
  let backslash = text.indexOf('\\');
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Each search starts where the last ended, so a string of escapes is one pass, not one pass
      // an escape (ten megabytes of `\n` took minutes when the quote was sought again after each).
      let close = text.indexOf('"', i + 1);
      for (let from = i + 1; ; ) {
        // Unterminated: JSON.parse refuses it.
        if (close < 0) return { tooDeep: false, surrogates, numbers: NO_NUMBERS, topLevelCommas };
        if (backslash >= 0 && backslash < from) backslash = text.indexOf('\\', from);
        if (backslash < 0 || backslash > close) {
          i = close;
          break;
        }
        if (text.charCodeAt(backslash + 1) === 0x75 && isSurrogateEscape(text, backslash)) surrogates = true;
        from = backslash + 2;
        // The quote found was the escaped one.
        if (close < from) close = text.indexOf('"', from);
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) return TOO_DEEP;
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x2c) {
      if (depth === 1) topLevelCommas++;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      let plain = true;
      for (; end < text.length; end++) {
        const d = text.charCodeAt(end);
        if (!isNumberChar(d)) break;
        if (d < 0x30 || d > 0x39) plain = false;
      }
      const ordinary =
        plain && end - i <= 15 && !(c === 0x2d && end - i === 2 && text.charCodeAt(i + 1) === 0x30);
      if (!ordinary) {
        const value =
          numbers !== null && numbers.length >= MAX_EXACT_NUMBERS ? null : exactNumber(text.slice(i, end));
        if (value !== null) {
          numbers ??= [];
          numbers.push({ start: i, end, value });
        }
      }
      i = end - 1;
    }
  }
  return { tooDeep: false, surrogates, numbers: numbers ?? NO_NUMBERS, topLevelCommas };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A 400 with serde_json's reason, or `fallback`'s where its walk finds none. */
function refused(bytes: Uint8Array, fallback: () => string): BodyResult {
  return { ok: false, status: 400, text: BAD_JSON + (jsonSyntaxError(bytes) ?? fallback()) };
}

/**
 * The body's bytes as nearcore reads them. serde_json reads UTF-8 only, so bytes that are not UTF-8
 * are a 400 parse error rather than text with replacement characters.
 */
export function parseJsonBytes(contentType: string | undefined, bytes: Uint8Array): BodyResult {
  if (!isJsonContentType(contentType)) return { ok: false, status: 415, text: WRONG_CONTENT_TYPE };
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return refused(bytes, () => 'invalid unicode code point');
  }
  const { tooDeep, surrogates, numbers, topLevelCommas } = scan(text);
  if (tooDeep) return refused(bytes, () => 'recursion limit exceeded');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return refused(bytes, () => (err as Error).message);
  }
  if (surrogates) {
    const reason = jsonSyntaxError(bytes);
    if (reason !== null) return { ok: false, status: 400, text: BAD_JSON + reason };
  }
  if (numbers.length === 0) return { ok: true, value, topLevelCommas };
  for (const n of numbers) {
    if (n.value instanceof JsonF64 && !Number.isFinite(n.value.value)) {
      return refused(bytes, () => 'number out of range');
    }
  }
  return { ok: true, value: withExactNumbers(text, numbers), topLevelCommas };
}

/**
 * Each odd literal is parsed as a marker string naming it, then the marker is replaced by its
 * number. A marker holds U+0000 and a key drawn at random when the process starts, so no string a
 * client sends can pass for one.
 */
const MARK = `\u0000${randomBytes(8).toString('hex')}:`;
const MARK_JSON = JSON.stringify(MARK).slice(1, -1);

function withExactNumbers(text: string, numbers: readonly ExactNumber[]): unknown {
  const parts: string[] = [];
  let at = 0;
  numbers.forEach((n, i) => {
    parts.push(text.slice(at, n.start), `"${MARK_JSON}${i}"`);
    at = n.end;
  });
  parts.push(text.slice(at));
  return restore(JSON.parse(parts.join('')), numbers);
}

function restore(v: unknown, numbers: readonly ExactNumber[]): unknown {
  if (typeof v === 'string') {
    if (!v.startsWith(MARK)) return v;
    const i = Number(v.slice(MARK.length));
    return Number.isInteger(i) && i >= 0 && i < numbers.length ? numbers[i]!.value : v;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = restore(v[i], numbers);
  } else if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const value = restore(o[k], numbers);
      // Only a marker is replaced (objects are restored in place); defineProperty, as a key
      // `__proto__` JSON.parse made an own property must stay one.
      if (value !== o[k])
        Object.defineProperty(o, k, { value, writable: true, enumerable: true, configurable: true });
    }
  }
  return v;
}
