/** A chain that cannot go on as asked: no validator key, a row a block needs is missing. */
export class ChainError extends Error {
  override readonly name = 'ChainError';
}
