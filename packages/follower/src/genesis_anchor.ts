// Whether a stream is the chain of this home's genesis.json. nearcore refuses a store whose genesis is
// not its config's ("Genesis mismatch between storage and config", chain/chain/src/chain.rs) and a
// peer of another genesis (HandshakeFailureReason::GenesisMismatch); a follower that took another
// chain's blocks would answer from its own genesis records what that chain never held.
//
// Checked on the first block a history takes, where the stream shows its genesis: the genesis block
// itself (the one block whose `prev_hash` is the zero hash), whose hash is known for NEAR's own
// networks and whose height, timestamp and total supply are the genesis config's for any chain
// (nearcore's Block::genesis takes them from it); or, for NEAR's networks, the genesis hash a first
// block after the genesis names as its parent. A history that begins later (a window of a chain) has
// nothing to compare with here.
import { type GenesisConfig, nearNetworkGenesisHash } from '@nearlite/chain';
import { type BlockHeaderJson, BlockVerificationError, VerifyCheck, ZERO_HASH_TEXT } from '@nearlite/stream';

/** What genesis.json says the stream's genesis block must be. */
export interface GenesisAnchor {
  readonly height: number;
  readonly timestampNs: bigint;
  readonly totalSupply: bigint;
  /** The genesis block's hash where it is known without the block (NEAR's own networks). */
  readonly hash: string | null;
}

export function genesisAnchor(config: GenesisConfig): GenesisAnchor {
  return {
    height: config.genesisHeight,
    timestampNs: config.genesisTimeNs,
    totalSupply: config.totalSupply,
    hash: nearNetworkGenesisHash(config),
  };
}

/** The genesis block's header fields the anchor compares, as the view writes them. */
export interface GenesisFacts {
  readonly timestampNs: string;
  readonly totalSupply: string;
}

/** A genesis block's facts (its `prev_hash` is the zero hash); undefined for any other block. */
export function genesisFactsOf(header: BlockHeaderJson): GenesisFacts | undefined {
  if (header.prev_hash !== ZERO_HASH_TEXT) return undefined;
  // `timestamp` is a JSON number, which loses nanoseconds; the view's string keeps them.
  return { timestampNs: header.timestamp_nanosec, totalSupply: String(header.total_supply) };
}

/** The first block of a history, as both ingest paths hold it. */
export interface FirstBlock {
  readonly height: number;
  readonly hash: string;
  readonly prevHash: string;
  readonly prevHeight: number | null;
  readonly genesis?: GenesisFacts | undefined;
}

/** Refuses a first block that shows another genesis than the anchor's; fatal, as a refetch cannot mend it. */
export function checkGenesisAnchor(anchor: GenesisAnchor, b: FirstBlock): void {
  const refuse = (detail: string): never => {
    throw new StreamGenesisError(
      b.height,
      `${detail}: the stream is not the chain of this home's genesis.json`,
    );
  };
  if (b.prevHash === ZERO_HASH_TEXT) {
    if (b.height !== anchor.height)
      refuse(
        `the stream's genesis block is at #${b.height}, genesis.json's genesis_height is ${anchor.height}`,
      );
    if (anchor.hash !== null) {
      if (b.hash !== anchor.hash) refuse(`the stream's genesis block is ${b.hash}, not ${anchor.hash}`);
      return;
    }
    const facts = b.genesis;
    if (facts === undefined) return;
    if (!sameNumber(facts.timestampNs, anchor.timestampNs))
      refuse(
        `the stream's genesis block has timestamp ${facts.timestampNs}, genesis.json's genesis_time is ${anchor.timestampNs} ns`,
      );
    if (!sameNumber(facts.totalSupply, anchor.totalSupply))
      refuse(
        `the stream's genesis block has total_supply ${facts.totalSupply}, genesis.json's is ${anchor.totalSupply}`,
      );
    return;
  }
  if (anchor.hash !== null && b.prevHeight === anchor.height && b.prevHash !== anchor.hash)
    refuse(`block #${b.height} follows genesis ${b.prevHash}, not ${anchor.hash}`);
}

function sameNumber(text: string, value: bigint): boolean {
  try {
    return BigInt(text) === value;
  } catch {
    return false;
  }
}

/** A stream of another chain: following stops, as a restart or a refetch would meet the same. */
export class StreamGenesisError extends BlockVerificationError {
  readonly fatal = true;
  constructor(height: number, detail: string) {
    super(height, VerifyCheck.Genesis, detail);
  }
}
