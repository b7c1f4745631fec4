// Rust's `Utf8Error` text (core::str::from_utf8, `run_utf8_validation`): where the valid prefix
// ends and how many bytes the invalid sequence there spans, by the maximal-subpart rule, or that the
// input ends inside a sequence. Borsh reports a String it cannot read with it, and nearcore passes
// that on ("Failed to decode transaction: invalid utf-8 sequence of 1 bytes from index 3").

const isCont = (b: number | undefined) => b !== undefined && b >= 0x80 && b <= 0xbf;

/** The second byte a three- or four-byte sequence may have after `first`. */
function secondFits(first: number, b: number): boolean {
  if (first === 0xe0) return b >= 0xa0 && b <= 0xbf;
  if (first === 0xed) return b >= 0x80 && b <= 0x9f;
  if (first === 0xf0) return b >= 0x90 && b <= 0xbf;
  if (first === 0xf4) return b >= 0x80 && b <= 0x8f;
  return b >= 0x80 && b <= 0xbf;
}

/** Rust's Display of the first UTF-8 error in `bytes`, or null when they are valid UTF-8. */
export function rustUtf8Error(bytes: Uint8Array): string | null {
  for (let i = 0; i < bytes.length; ) {
    const first = bytes[i]!;
    if (first < 0x80) {
      i++;
      continue;
    }
    const width =
      first >= 0xc2 && first <= 0xdf
        ? 2
        : first >= 0xe0 && first <= 0xef
          ? 3
          : first >= 0xf0 && first <= 0xf4
            ? 4
            : 0;
    const invalid = (n: number) => `invalid utf-8 sequence of ${n} bytes from index ${i}`;
    if (width === 0) return invalid(1);
    for (let k = 1; k < width; k++) {
      const b = bytes[i + k];
      if (b === undefined) return `incomplete utf-8 byte sequence from index ${i}`;
      if (k === 1 ? !secondFits(first, b) : !isCont(b)) return invalid(k);
    }
    i += width;
  }
  return null;
}
