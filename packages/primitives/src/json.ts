// JSON with exact u64s: nearcore writes block timestamps (~1.7e18 ns) as JSON numbers, beyond 2^53.
// Views carry such values as bigint; this serializer writes them as bare integer literals.
const MARK = '\u0000nearlite:bigint:';
const MARK_RE = /"\\u0000nearlite:bigint:(\d+)"/g;

function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? MARK + value.toString() : value;
}

export function stringifyJson(value: unknown): string {
  const s = JSON.stringify(value, replacer);
  return s.includes('nearlite:bigint:') ? s.replace(MARK_RE, '$1') : s;
}
