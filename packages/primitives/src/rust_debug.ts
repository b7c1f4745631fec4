// Rust's `{:?}` of a value in serde's externally tagged JSON shape: nearcore's error strings print
// its enums this way (`MethodResolveError(MethodNotFound)`, `CodeDoesNotExist { account_id: "a" }`).

// Rust's core::unicode tables: a char is printed as it is unless it is a control, format,
// surrogate, private-use, unassigned or separator char (a plain space aside), or extends a grapheme.
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}\p{Grapheme_Extend}]/u;
const ESCAPES: Readonly<Record<string, string>> = {
  '\0': '\\0',
  '\t': '\\t',
  '\r': '\\r',
  '\n': '\\n',
  '\\': '\\\\',
  '"': '\\"',
};

/** A string as `{:?}` prints it (`str::escape_debug`, double quotes escaped, single ones not). */
export function rustDebugString(s: string): string {
  let out = '"';
  for (const c of s) {
    const escaped = ESCAPES[c];
    if (escaped !== undefined) out += escaped;
    else if (c !== ' ' && NOT_PRINTABLE.test(c)) out += `\\u{${c.codePointAt(0)!.toString(16)}}`;
    else out += c;
  }
  return `${out}"`;
}

/** A char as `{:?}` prints it (`char::escape_debug`: single quotes, the single one escaped). */
export function rustDebugChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return `'"'`;
  return `'${rustDebugString(c).slice(1, -1)}'`;
}

function isVariant(s: string): boolean {
  return /^[A-Z][A-Za-z0-9]*$/.test(s);
}

/**
 * The tuple variants of nearcore's FunctionCallError whose payload is a `String`, not an enum: its
 * text is quoted however it reads.
 */
const STRING_PAYLOAD = new Set(['ExecutionError']);

/**
 * A struct variant's field: in nearcore's errors a string there is always a `String`
 * (`GuestPanic { panic_msg: "Unauthorized" }`), never a unit variant, however it reads.
 */
function fieldDebug(v: unknown): string {
  return typeof v === 'string' ? rustDebugString(v) : rustDebug(v);
}

/** `{A: {B: {x: "y"}}}` → `A(B { x: "y" })`, as `{:?}` prints nearcore's enums. */
export function rustDebug(v: unknown): string {
  if (typeof v === 'string') return isVariant(v) ? v : rustDebugString(v);
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return 'None';
  if (Array.isArray(v)) return `[${v.map(rustDebug).join(', ')}]`;
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length === 1 && isVariant(entries[0]![0])) {
    const [k, inner] = entries[0]!;
    if (
      inner &&
      typeof inner === 'object' &&
      !Array.isArray(inner) &&
      Object.keys(inner).every((f) => !isVariant(f))
    ) {
      return `${k} { ${Object.entries(inner)
        .map(([f, x]) => `${f}: ${fieldDebug(x)}`)
        .join(', ')} }`;
    }
    return `${k}(${STRING_PAYLOAD.has(k) ? fieldDebug(inner) : rustDebug(inner)})`;
  }
  return `{ ${entries.map(([f, x]) => `${f}: ${fieldDebug(x)}`).join(', ')} }`;
}
