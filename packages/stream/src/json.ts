// Parses stream JSON without losing u64s: nearcore writes `header.timestamp` (~1.7e18) and other
// u64s as bare JSON numbers beyond 2^53. Integer literals of 16 digits or more become bigint (as
// `stringifyJson` writes them back), everything else is JSON.parse's. The literals are set aside
// under a per-call random marker, so no string in the input can pass for one.
import { randomBytes } from 'node:crypto';

export function parseStreamJson(text: string): unknown {
  let big: string[] | null = null;
  let out = '';
  let last = 0;
  const nonce = randomBytes(8).toString('hex');
  const marker = `\u0000${nonce}:`;
  const markerText = `\\u0000${nonce}:`;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string, escapes included.
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      continue;
    }
    if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (!((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d))
          break;
        j++;
      }
      const literal = text.slice(i, j);
      if (literal.length >= 16 && /^-?\d+$/.test(literal)) {
        big ??= [];
        big.push(literal);
        out += `${text.slice(last, i)}"${markerText}${big.length - 1}"`;
        last = j;
      }
      i = j - 1;
    }
  }
  if (big === null) return JSON.parse(text);
  const saved: string[] = big;
  out += text.slice(last);
  return JSON.parse(out, (_k, v: unknown) =>
    typeof v === 'string' && v.startsWith(marker) ? BigInt(saved[Number(v.slice(marker.length))]!) : v,
  );
}
