// JSON with exact u64s: nearcore writes block timestamps (~1.7e18 ns) as JSON numbers, beyond 2^53.
// Views carry such values as bigint; this serializer writes them as bare integer literals. A view
// may also embed an already-serialized part (RawJson), e.g. a cached block view, without re-encoding.
const MARK = '\u0000nearlite:';
const MARK_RE = /"\\u0000nearlite:(bigint|raw):(\d+)"/g;

export class RawJson {
  constructor(readonly json: string) {}
}

export function stringifyJson(value: unknown): string {
  if (value instanceof RawJson) return value.json;
  let raws: string[] | null = null;
  const s = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return `${MARK}bigint:${v.toString()}`;
    if (v instanceof RawJson) {
      raws ??= [];
      raws.push(v.json);
      return `${MARK}raw:${raws.length - 1}`;
    }
    return v;
  });
  if (!s.includes('nearlite:')) return s;
  return s.replace(MARK_RE, (_m, kind: string, n: string) => (kind === 'bigint' ? n : raws![Number(n)]!));
}
