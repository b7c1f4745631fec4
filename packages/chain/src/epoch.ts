// Epochs with one validator: fixed-length ranges of heights after genesis. As in nearcore, the first
// epoch's id is the zero hash, the second's is the genesis hash, and epoch e ≥ 2 takes the hash of the
// last block of epoch e − 2.
import { type CryptoHash, ZERO_HASH } from '@nearlite/primitives';

export interface EpochPosition {
  /** 0-based epoch index (nearcore's epoch_height is this + 1). */
  readonly index: number;
  readonly startHeight: number;
  readonly endHeight: number;
}

export function epochOf(height: number, genesisHeight: number, epochLength: number): EpochPosition {
  if (height <= genesisHeight)
    return { index: 0, startHeight: genesisHeight, endHeight: genesisHeight + epochLength };
  const index = Math.floor((height - genesisHeight - 1) / epochLength);
  const startHeight = genesisHeight + 1 + index * epochLength;
  return { index, startHeight, endHeight: startHeight + epochLength - 1 };
}

/** nearcore's epoch_height of the epoch holding `height`: what receipts and view calls at it see. */
export function epochHeightOf(height: number, genesisHeight: number, epochLength: number): number {
  return epochOf(height, genesisHeight, epochLength).index + 1;
}

/**
 * Id of epoch `index`; `hashAt(h)` returns the canonical block hash at height h (those heights are
 * always below the block being produced).
 */
export function epochIdOf(
  index: number,
  genesisHeight: number,
  epochLength: number,
  genesisHash: CryptoHash,
  hashAt: (h: number) => CryptoHash,
): CryptoHash {
  if (index <= 0) return ZERO_HASH;
  if (index === 1) return genesisHash;
  return hashAt(genesisHeight + (index - 1) * epochLength);
}
