/** A value made on first use and kept: for module loads too costly to pay at start-up. */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
