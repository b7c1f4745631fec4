// NEAR's own networks, as nearcore knows them: their chain ids, which its parameter and epoch config
// stores set apart, and the hashes of their genesis blocks, which nearcore asserts when it makes them
// (chain/chain/src/chain.rs). A follower of one that holds no genesis block still knows its hash.
import type { GenesisConfig } from './config.js';

interface NearNetwork {
  readonly genesisHeight: number;
  readonly genesisHash: string;
}

const NEAR_NETWORKS: Readonly<Record<string, NearNetwork>> = {
  mainnet: { genesisHeight: 9_820_210, genesisHash: 'EPnLgE7iEq9s7yTkos96M3cWymH5avBAPm3qx3NXqR8H' },
  testnet: { genesisHeight: 42_376_888, genesisHash: 'FWJ9kR6KFWoyMoNjpLXXGHeuiy7tEY6GmoFeCA5yuc6b' },
};

/** Whether the chain id is one of NEAR's own networks (`mainnet`, `testnet`). */
export function isNearNetwork(chainId: string): boolean {
  return Object.hasOwn(NEAR_NETWORKS, chainId);
}

/** The genesis block hash of the NEAR network this genesis is, or null for any other chain. */
export function nearNetworkGenesisHash(config: GenesisConfig): string | null {
  const n = isNearNetwork(config.chainId) ? NEAR_NETWORKS[config.chainId] : undefined;
  return n && n.genesisHeight === config.genesisHeight ? n.genesisHash : null;
}
