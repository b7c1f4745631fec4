// Why a text is not JSON, in the words nearcore's serde_json uses. nearcore's RPC takes a request
// body through axum's `Json` extractor, which reads it with serde_json under serde_path_to_error and,
// since axum 0.8.5, refuses anything after the value. The request type is an untagged enum, so the
// whole body is first read into a generic value: every syntax error is found on that one walk, and
// the error names where it stopped (serde_json's `at line L column C`, counted in bytes) and, in
// front, the path of the value being read, as serde_path_to_error prints it (`params[0].block_id: `).
// nearcore's config and key files are read with plain serde_json: the same reasons, no path.
//
// This walk runs only for a text JSON.parse refused or a faster scan flagged; it follows serde_json's
// reader (de.rs, read.rs: SliceRead) byte by byte, so each error is the one serde_json meets first,
// at the index it reports.
import { isUtf8 } from 'node:buffer';

/**
 * A path segment: an array index, an object key (where its quoted text lies in the body: it is
 * decoded only if an error names it), or a key that was not read (`?`).
 */
type Segment = number | { readonly start: number; readonly end: number } | null;

const NO_KEY: Segment = null;

/** serde_json's recursion limit: it refuses the 128th nested array or object. */
const REMAINING_DEPTH = 128;

const EOF_LIST = 'EOF while parsing a list';
const EOF_OBJECT = 'EOF while parsing an object';
const EOF_STRING = 'EOF while parsing a string';
const EOF_VALUE = 'EOF while parsing a value';
const EXPECTED_COLON = 'expected `:`';
const EXPECTED_LIST_COMMA_OR_END = 'expected `,` or `]`';
const EXPECTED_OBJECT_COMMA_OR_END = 'expected `,` or `}`';
const EXPECTED_IDENT = 'expected ident';
const EXPECTED_VALUE = 'expected value';
const INVALID_ESCAPE = 'invalid escape';
const INVALID_NUMBER = 'invalid number';
const NUMBER_OUT_OF_RANGE = 'number out of range';
const INVALID_UNICODE = 'invalid unicode code point';
const CONTROL_CHARACTER = 'control character (\\u0000-\\u001F) found while parsing a string';
const KEY_MUST_BE_A_STRING = 'key must be a string';
const LONE_LEADING_SURROGATE = 'lone leading surrogate in hex escape';
const TRAILING_COMMA = 'trailing comma';
const TRAILING_CHARACTERS = 'trailing characters';
const UNEXPECTED_END_OF_HEX_ESCAPE = 'unexpected end of hex escape';
const RECURSION_LIMIT = 'recursion limit exceeded';

class Stop {
  constructor(
    readonly what: string,
    /** The byte index serde_json's position is taken at. */
    readonly at: number,
    readonly path: readonly Segment[] | null,
  ) {}
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const ASCII = new TextDecoder('latin1');

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

class Reader {
  private i = 0;
  private depth = REMAINING_DEPTH;
  private readonly path: Segment[] = [];

  constructor(private readonly b: Uint8Array) {}

  /** Deserializer::error: the position of the last byte read. */
  private error(what: string, path: readonly Segment[] | null): Stop {
    return new Stop(what, this.i, path && [...path]);
  }

  /** Deserializer::peek_error: the position of the byte looked at (or of the end). */
  private peekError(what: string, path: readonly Segment[] | null): Stop {
    return new Stop(what, Math.min(this.b.length, this.i + 1), path && [...path]);
  }

  private peek(): number {
    return this.i < this.b.length ? this.b[this.i]! : -1;
  }

  private whitespace(): number {
    for (;;) {
      const c = this.peek();
      if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) return c;
      this.i++;
    }
  }

  document(): Stop | null {
    try {
      this.value();
      // axum's end(): a plain serde_json error, outside serde_path_to_error, so without a path.
      if (this.whitespace() !== -1) return this.peekError(TRAILING_CHARACTERS, null);
      return null;
    } catch (e) {
      if (e instanceof Stop) return e;
      throw e;
    }
  }

  /** deserialize_any of the value at this.path. */
  private value(): void {
    const c = this.whitespace();
    if (c === -1) throw this.peekError(EOF_VALUE, this.path);
    if (c === 0x6e) this.ident('null');
    else if (c === 0x74) this.ident('true');
    else if (c === 0x66) this.ident('false');
    else if (c === 0x2d) {
      this.i++;
      this.number();
    } else if (isDigit(c)) this.number();
    else if (c === 0x22) {
      this.i++;
      this.string(this.path);
    } else if (c === 0x5b || c === 0x7b) {
      if (--this.depth === 0) throw this.peekError(RECURSION_LIMIT, this.path);
      this.i++;
      if (c === 0x5b) this.seq();
      else this.map();
      this.depth++;
    } else throw this.peekError(EXPECTED_VALUE, this.path);
  }

  /** The rest of `null`, `true` or `false`, whose first letter is next. */
  private ident(word: string): void {
    this.i++;
    for (let k = 1; k < word.length; k++) {
      if (this.i >= this.b.length) throw this.error(EOF_VALUE, this.path);
      if (this.b[this.i++] !== word.charCodeAt(k)) throw this.error(EXPECTED_IDENT, this.path);
    }
  }

  /** A number after its sign: parse_integer, parse_decimal, parse_exponent and their range checks. */
  private number(): void {
    const start = this.i;
    if (this.i >= this.b.length) throw this.error(EOF_VALUE, this.path);
    const first = this.b[this.i++]!;
    if (first === 0x30) {
      if (isDigit(this.peek())) throw this.peekError(INVALID_NUMBER, this.path);
    } else if (first >= 0x31 && first <= 0x39) {
      while (isDigit(this.peek())) this.i++;
    } else throw this.error(INVALID_NUMBER, this.path);
    const integerDigits = this.i - start;
    let nonZero = first !== 0x30;
    if (this.peek() === 0x2e) {
      this.i++;
      const digits = this.i;
      while (isDigit(this.peek())) if (this.b[this.i++] !== 0x30) nonZero = true;
      if (this.i === digits) {
        throw this.peekError(this.peek() === -1 ? EOF_VALUE : INVALID_NUMBER, this.path);
      }
    }
    const e = this.peek();
    if (e === 0x65 || e === 0x45) {
      this.i++;
      const sign = this.peek();
      const positive = sign !== 0x2d;
      if (sign === 0x2b || sign === 0x2d) this.i++;
      if (this.i >= this.b.length) throw this.error(EOF_VALUE, this.path);
      const d = this.b[this.i++]!;
      if (!isDigit(d)) throw this.error(INVALID_NUMBER, this.path);
      // The exponent is kept in an i32: past it a non-zero number with a positive exponent is out
      // of range at the digit that overflowed, and anything else is zero.
      let exp = d - 0x30;
      while (isDigit(this.peek())) {
        const digit = this.b[this.i++]! - 0x30;
        if (exp > 214748364 || (exp === 214748364 && digit > 7)) {
          if (nonZero && positive) throw this.error(NUMBER_OUT_OF_RANGE, this.path);
          while (isDigit(this.peek())) this.i++;
          return;
        }
        exp = exp * 10 + digit;
      }
    }
    // An integer beyond u64 and i64 is an f64 too, and may be out of range like any other; only an
    // exponent, or more integer digits than the largest double has, can reach infinity.
    if (e !== 0x65 && e !== 0x45 && integerDigits <= 308) return;
    const literal = ASCII.decode(this.b.subarray(start, this.i));
    if (!Number.isFinite(Number(literal))) throw this.error(NUMBER_OUT_OF_RANGE, this.path);
  }

  /**
   * A string after its opening quote (SliceRead::parse_str): escapes are read as they come, and the
   * whole is checked as UTF-8 once its closing quote is read.
   */
  private string(path: readonly Segment[]): void {
    const b = this.b;
    let utf8 = true;
    let from = this.i;
    for (;;) {
      let c = -1;
      let ascii = true;
      let i = this.i;
      for (; i < b.length; i++) {
        c = b[i]!;
        if (c === 0x22 || c === 0x5c || c < 0x20) break;
        if (c >= 0x80) ascii = false;
      }
      this.i = i;
      if (i >= b.length) throw this.error(EOF_STRING, path);
      if (utf8 && !ascii) utf8 = isUtf8(b.subarray(from, i));
      if (c === 0x22) {
        this.i++;
        if (!utf8) throw this.error(INVALID_UNICODE, path);
        return;
      }
      this.i++;
      if (c !== 0x5c) throw this.error(CONTROL_CHARACTER, path);
      this.escape(path);
      from = this.i;
    }
  }

  private escape(path: readonly Segment[]): void {
    if (this.i >= this.b.length) throw this.error(EOF_STRING, path);
    const c = this.b[this.i++]!;
    // " \ / b f n r t
    if (
      c === 0x22 ||
      c === 0x5c ||
      c === 0x2f ||
      c === 0x62 ||
      c === 0x66 ||
      c === 0x6e ||
      c === 0x72 ||
      c === 0x74
    )
      return;
    if (c !== 0x75) throw this.error(INVALID_ESCAPE, path);
    const n = this.hexEscape(path);
    if (n >= 0xdc00 && n <= 0xdfff) throw this.error(LONE_LEADING_SURROGATE, path);
    if (n < 0xd800 || n > 0xdbff) return;
    // A leading surrogate must be followed by the escape of a trailing one.
    for (const expected of [0x5c, 0x75]) {
      if (this.i >= this.b.length) throw this.error(EOF_STRING, path);
      if (this.b[this.i++] !== expected) throw this.error(UNEXPECTED_END_OF_HEX_ESCAPE, path);
    }
    const n2 = this.hexEscape(path);
    if (n2 < 0xdc00 || n2 > 0xdfff) throw this.error(LONE_LEADING_SURROGATE, path);
  }

  private hexEscape(path: readonly Segment[]): number {
    if (this.i + 4 > this.b.length) {
      this.i = this.b.length;
      throw this.error(EOF_STRING, path);
    }
    let n = 0;
    let valid = true;
    for (let k = 0; k < 4; k++) {
      const h = hexValue(this.b[this.i + k]!);
      if (h < 0) valid = false;
      n = n * 16 + h;
    }
    this.i += 4;
    if (!valid) throw this.error(INVALID_ESCAPE, path);
    return n;
  }

  /**
   * An array after its `[`. The errors between elements are its own (serde_path_to_error's
   * SeqAccess names the array); an element's are the element's, at its index.
   */
  private seq(): void {
    for (let index = 0; ; index++) {
      let c = this.whitespace();
      if (c === -1) throw this.peekError(EOF_LIST, this.path);
      if (c === 0x5d) {
        this.i++;
        return;
      }
      if (index > 0) {
        if (c !== 0x2c) throw this.peekError(EXPECTED_LIST_COMMA_OR_END, this.path);
        this.i++;
        c = this.whitespace();
        if (c === 0x5d) throw this.peekError(TRAILING_COMMA, this.path);
        if (c === -1) throw this.peekError(EOF_VALUE, this.path);
      }
      this.path.push(index);
      this.value();
      this.path.pop();
    }
  }

  /**
   * An object after its `{`. Until a key is read, an error names a key not read (`?`) under the
   * object; the colon's errors name the object; a value's, its key.
   */
  private map(): void {
    const keyPath = [...this.path, NO_KEY];
    for (let first = true; ; first = false) {
      let c = this.whitespace();
      if (c === -1) throw this.peekError(EOF_OBJECT, keyPath);
      if (c === 0x7d) {
        this.i++;
        return;
      }
      if (!first) {
        if (c !== 0x2c) throw this.peekError(EXPECTED_OBJECT_COMMA_OR_END, keyPath);
        this.i++;
        c = this.whitespace();
        if (c === 0x7d) throw this.peekError(TRAILING_COMMA, keyPath);
        if (c === -1) throw this.peekError(EOF_VALUE, keyPath);
      }
      if (c !== 0x22) throw this.peekError(KEY_MUST_BE_A_STRING, keyPath);
      this.i++;
      const key = { start: this.i - 1, end: 0 };
      this.string(keyPath);
      key.end = this.i;
      c = this.whitespace();
      if (c === -1) throw this.peekError(EOF_OBJECT, this.path);
      if (c !== 0x3a) throw this.peekError(EXPECTED_COLON, this.path);
      this.i++;
      this.path.push(key);
      this.value();
      this.path.pop();
    }
  }

  /** serde_path_to_error's Display of a path: keys joined by dots, indexes in brackets, `?` unread. */
  pathText(path: readonly Segment[]): string {
    let out = '';
    for (const s of path) {
      if (typeof s === 'number') out += `[${s}]`;
      else {
        const key = s === null ? '?' : (JSON.parse(UTF8.decode(this.b.subarray(s.start, s.end))) as string);
        out += (out === '' ? '' : '.') + key;
      }
    }
    return out;
  }

  /** SliceRead::position_of_index: the line, and the bytes read on it. */
  position(at: number): string {
    let line = 1;
    let lineStart = 0;
    for (let k = 0; k < at; k++) {
      if (this.b[k] === 0x0a) {
        line++;
        lineStart = k + 1;
      }
    }
    return `line ${line} column ${at - lineStart}`;
  }
}

/**
 * serde_json's complaint about `body`, as serde_path_to_error prints it (or without the path, where
 * `paths` is false), or null where serde_json reads the body as one JSON value.
 */
export function jsonSyntaxError(body: Uint8Array, paths = true): string | null {
  const reader = new Reader(body);
  const stop = reader.document();
  if (stop === null) return null;
  // The path is printed unless every segment is unknown (an empty path included).
  const path = paths && stop.path?.some((s) => s !== null) ? `${reader.pathText(stop.path)}: ` : '';
  return `${path}${stop.what} at ${reader.position(stop.at)}`;
}
