// A localnet genesis as `nearlite init` writes it, fixed in time, for tests that read one as JSON.
import { makeLocalnetGenesis } from '@nearlite/chain';

export function fixedLocalnetGenesis(chainId: string): Record<string, unknown> {
  return makeLocalnetGenesis({
    chainId,
    numShards: 1,
    epochLength: 10,
    validatorAccountId: 'test.near',
    validatorPublicKey: 'ed25519:6E8sCci9badyRkXb3JoRpBj5p8C6Tw41ELDZoiihKEtp',
    protocolVersion: 86,
    genesisTimeNs: 1_700_000_000_000_000_000n,
  });
}
