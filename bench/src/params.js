// The benchmark dataset's parameters, one place for every script that builds or reuses it.
export function benchParams(quick) {
  return quick
    ? {
        name: 'quick',
        accounts: 300,
        holders: 100,
        transfers: 400,
        denseTransfers: 10_000,
        blocks: 2000,
        duration: 4,
      }
    : {
        name: 'full',
        accounts: 10_000,
        holders: 10_000,
        transfers: 20_000,
        denseTransfers: 20_000,
        blocks: 20_000,
        duration: 10,
      };
}
