// A decode or parse whose failure only means "not this": the caller goes on without the value.

/** `fn()`, or undefined when it throws. */
export function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
