// Strict standard base64 with canonical padding, reporting failures in the words of the `base64`
// crate (0.21) that nearcore decodes with. Node's own decoder silently skips garbage.

export class Base64DecodeError extends Error {
  override readonly name = 'Base64DecodeError';
}

const PAD = 0x3d;

function symbolValue(c: number): number {
  if (c >= 0x41 && c <= 0x5a) return c - 0x41;
  if (c >= 0x61 && c <= 0x7a) return c - 0x61 + 26;
  if (c >= 0x30 && c <= 0x39) return c - 0x30 + 52;
  if (c === 0x2b) return 62;
  if (c === 0x2f) return 63;
  return -1;
}

/** The byte the crate would report: the first UTF-8 byte of the offending character. */
function byteAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  return c < 0x80 ? c : Buffer.from(String.fromCodePoint(text.codePointAt(i)!), 'utf8')[0]!;
}

export function decodeBase64(text: string): Uint8Array {
  const n = text.length;
  let pad = 0;
  while (pad < 2 && pad < n && text.charCodeAt(n - 1 - pad) === PAD) pad++;
  const body = n - pad;
  let last = 0;
  for (let i = 0; i < body; i++) {
    last = symbolValue(text.charCodeAt(i));
    if (last < 0) throw new Base64DecodeError(`Invalid symbol ${byteAt(text, i)}, offset ${i}.`);
  }
  const rem = body % 4;
  if (rem === 1) throw new Base64DecodeError('Invalid input length.');
  if ((rem === 0 && pad !== 0) || (rem !== 0 && pad !== 4 - rem)) {
    throw new Base64DecodeError('Invalid padding');
  }
  if ((rem === 2 && (last & 0x0f) !== 0) || (rem === 3 && (last & 0x03) !== 0)) {
    throw new Base64DecodeError(`Invalid last symbol ${text.charCodeAt(body - 1)}, offset ${body - 1}.`);
  }
  return new Uint8Array(Buffer.from(text, 'base64'));
}
