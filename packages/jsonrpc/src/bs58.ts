// The bs58 crate's decoding, as far as its failures go: nearcore reads every base58 field with it,
// digit by digit from the left into a buffer of the field's size, so the first failure the input
// meets is the one reported. A bad character past more digits than the buffer holds is reported as
// a buffer too small (a length error), and a non-ASCII byte has a message of its own.
import { base58Digit, rustDebugChar } from '@nearlite/primitives';

export type Bs58Failure =
  | { readonly kind: 'BufferTooSmall' }
  | { readonly kind: 'InvalidCharacter'; readonly character: string; readonly index: number }
  | { readonly kind: 'NonAsciiCharacter'; readonly index: number };

const TOO_SMALL: Bs58Failure = { kind: 'BufferTooSmall' };

/**
 * bs58's `decode(text).onto(buffer)` for a buffer of `capacity` bytes (`Infinity`: `into_vec`):
 * the decoded length, or the failure it stops at. `index` is a byte offset in the UTF-8 text.
 */
export function bs58Decoded(text: string, capacity: number): number | Bs58Failure {
  const input = Buffer.from(text, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (c > 127) return { kind: 'NonAsciiCharacter', index: i };
    let carry = base58Digit(c);
    if (carry < 0) return { kind: 'InvalidCharacter', character: String.fromCharCode(c), index: i };
    for (let j = 0; j < out.length; j++) {
      carry += out[j]! * 58;
      out[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      if (out.length >= capacity) return TOO_SMALL;
      out.push(carry & 0xff);
      carry >>= 8;
    }
  }
  for (let i = 0; i < input.length && input[i] === 0x31; i++) {
    if (out.length >= capacity) return TOO_SMALL;
    out.push(0);
  }
  return out.length;
}

/** A character outside the base58 alphabet. */
export const BS58_OUTSIDE = /[^1-9A-HJ-NP-Za-km-z]/;

/** What bs58's `into_vec`, which has no size to pass, fails at: the first byte outside the alphabet. */
export function bs58CharFailure(text: string): Bs58Failure | null {
  const m = BS58_OUTSIDE.exec(text);
  if (!m) return null;
  const index = Buffer.byteLength(text.slice(0, m.index), 'utf8');
  return m[0].charCodeAt(0) > 127
    ? { kind: 'NonAsciiCharacter', index }
    : { kind: 'InvalidCharacter', character: m[0], index };
}

/** bs58's Display of a failure. */
export function bs58Message(f: Bs58Failure): string {
  switch (f.kind) {
    case 'BufferTooSmall':
      return 'buffer provided to decode base58 encoded string into was too small';
    case 'InvalidCharacter':
      return `provided string contained invalid character ${rustDebugChar(f.character)} at byte ${f.index}`;
    case 'NonAsciiCharacter':
      return `provided string contained non-ascii character starting at byte ${f.index}`;
  }
}
