/** A header view that lacks a field its layout needs, or holds one that does not decode. */
export class HeaderViewError extends Error {
  override readonly name = 'HeaderViewError';
}
