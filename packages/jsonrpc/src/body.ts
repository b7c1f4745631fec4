// Request-body rules of nearcore's axum `Json` extractor: the content type must be JSON (415
// otherwise), the text must parse (400 with a plain-text reason otherwise), and, like serde_json,
// nesting deeper than 128 levels is refused before parsing, so a hostile body of ten megabytes of
// brackets costs one linear scan instead of seconds of JSON.parse and a stack overflow on reply.

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const MAX_DEPTH = 128;

export type BodyResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly status: 400 | 415; readonly text: string };

export const WRONG_CONTENT_TYPE = 'Expected request with `Content-Type: application/json`';
const BAD_JSON = 'Failed to parse the request body as JSON: ';

export function isJsonContentType(type: string | undefined): boolean {
  return type !== undefined && JSON_TYPE.test(type);
}

/** Index of the bracket that exceeds MAX_DEPTH, or -1. Brackets inside strings do not count. */
function tooDeepAt(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

function lineColumn(text: string, at: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line} column ${at - lineStart + 1}`;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function invalidUtf8At(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const n =
      b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (n === 0) return i;
    try {
      UTF8.decode(bytes.subarray(i, i + n));
    } catch {
      return i;
    }
    i += n;
  }
  return bytes.length;
}

/**
 * The body's bytes as nearcore reads them: serde_json takes UTF-8 only, so bytes that are not UTF-8
 * are a 400 parse error rather than text with replacement characters.
 */
export function parseJsonBytes(contentType: string | undefined, bytes: Uint8Array): BodyResult {
  if (!isJsonContentType(contentType)) return { ok: false, status: 415, text: WRONG_CONTENT_TYPE };
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    const at = invalidUtf8At(bytes);
    const before = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, at));
    return {
      ok: false,
      status: 400,
      text: `${BAD_JSON}invalid unicode code point at ${lineColumn(before, before.length)}`,
    };
  }
  return parseJsonBody(contentType, text);
}

export function parseJsonBody(contentType: string | undefined, text: string): BodyResult {
  if (!isJsonContentType(contentType)) return { ok: false, status: 415, text: WRONG_CONTENT_TYPE };
  if (text.length > MAX_DEPTH) {
    const at = tooDeepAt(text);
    if (at >= 0) {
      return {
        ok: false,
        status: 400,
        text: `${BAD_JSON}recursion limit exceeded at ${lineColumn(text, at)}`,
      };
    }
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, status: 400, text: BAD_JSON + (err as Error).message };
  }
}
