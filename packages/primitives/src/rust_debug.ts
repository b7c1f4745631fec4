// Rust's `{:?}` of a value in serde's externally tagged JSON shape: nearcore's error strings print
// its enums this way (`MethodResolveError(MethodNotFound)`, `CodeDoesNotExist { account_id: "a" }`).

function isVariant(s: string): boolean {
  return /^[A-Z][A-Za-z0-9]*$/.test(s);
}

/** `{A: {B: {x: "y"}}}` → `A(B { x: "y" })`, as `{:?}` prints nearcore's enums. */
export function rustDebug(v: unknown): string {
  if (typeof v === 'string') return isVariant(v) ? v : JSON.stringify(v);
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
        .map(([f, x]) => `${f}: ${rustDebug(x)}`)
        .join(', ')} }`;
    }
    return `${k}(${rustDebug(inner)})`;
  }
  return `{ ${entries.map(([f, x]) => `${f}: ${rustDebug(x)}`).join(', ')} }`;
}
