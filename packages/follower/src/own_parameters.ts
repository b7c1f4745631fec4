// Which followed blocks ran the protocol parameters this node has. A chain nearlite produces keeps
// nearlite's parameters and its genesis epoch config for life, under whatever version its genesis
// names, so a block of that version ran them. NEAR's own networks are set apart by their chain ids,
// as nearcore's RuntimeConfigStore::for_chain_id and EpochConfigStore set them apart: each of their
// versions ran that version's parameters and epoch config (shard layout, seats, thresholds), none of
// which this node has. Even a block there of the genesis' own version (mainnet's and testnet's 29)
// ran parameters other than nearlite's.
import { type GenesisConfig, isNearNetwork } from '@nearlite/chain';

/** Whether a block of `protocolVersion` on the chain of `genesis` ran this node's parameters. */
export function ranOwnParameters(genesis: GenesisConfig, protocolVersion: number): boolean {
  return protocolVersion === genesis.protocolVersion && !isNearNetwork(genesis.chainId);
}
