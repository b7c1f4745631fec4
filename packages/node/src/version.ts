import type { BuildVersion } from '@nearlite/chain';

export const VERSION = '0.1.0';

/** Defined by `scripts/bundle.mjs` in the bundles it makes from a git checkout. */
declare const __nearliteCommit: string | undefined;

/**
 * What `status` and `client_config` report of this build. As nearcore reports the commit it was built
 * from, a node run from a bundle made in a checkout reports that checkout's commit.
 */
export const BUILD_VERSION: BuildVersion = {
  version: VERSION,
  build: `nearlite-${VERSION}`,
  commit: typeof __nearliteCommit === 'string' ? __nearliteCommit : 'unknown',
  rustc_version: 'n/a',
};
