// next_light_client_block: nearcore's LightClientBlockView, chosen as its view client chooses it.
// While the client's last block is in the head's epoch or the one before, the answer is built from
// the head's last final block (moved back so the two blocks after it stay in its epoch); otherwise
// it is the block nearcore saves for the client's next epoch: the one built, when that epoch ended,
// from its last block. nearlite builds that saved block on demand from the kept headers, which
// gives the same view since a block's last final block is fixed once the block exists.
import {
  base58Encode,
  bytesEqual,
  type CryptoHash,
  combineHash,
  formatSignature,
  HandlerError,
  sha256,
  toHex,
  ZERO_HASH,
} from '@nearlite/primitives';
import { DBCol, u64be } from '@nearlite/store';
import { type BlockHeader, encodeInnerLite, innerRestHash } from '../block_header.js';
import type { ChainHandle } from '../chain_handle.js';
import { epochStakes } from '../epoch_rewards.js';
import { validatorsOrderedView } from '../views/validators_view.js';
import { blockHeaderLiteView } from './views.js';

// From<RpcLightClientNextBlockError> for RpcError puts the serialized error in the legacy `data`
// (nearcore chain/jsonrpc-primitives/src/types/light_client.rs); UnknownBlock's message is not
// serialized, so its info is empty. Every header nearcore's view client cannot find while it builds
// the answer (the last block itself, the head's last final block — none yet at genesis —, a block
// after it) is a DBNotFoundErr, which GetNextLightClientBlockError turns into UnknownBlock.
function unknownBlock(): HandlerError {
  return new HandlerError('UNKNOWN_BLOCK', {}, { name: 'UNKNOWN_BLOCK', info: {} });
}

function headerAt(chain: ChainHandle, height: number): BlockHeader {
  const hash = chain.chainStore.blockHashByHeight(height);
  const header = hash && chain.chainStore.blockHeader(hash);
  if (!header) throw unknownBlock();
  return header;
}

function headerOf(chain: ChainHandle, hash: CryptoHash): BlockHeader {
  const header = chain.chainStore.blockHeader(hash);
  if (!header) throw unknownBlock();
  return header;
}

/**
 * The canonical block after `b` (nearcore's get_next_block_hash), by ordinal: a sandbox
 * fast-forward leaves heights without a block.
 */
function nextHeader(chain: ChainHandle, b: BlockHeader): BlockHeader {
  const hash =
    chain.store.get(DBCol.BlockOrdinal, u64be(b.rest.blockOrdinal + 1)) ??
    chain.chainStore.blockHashByHeight(b.lite.height + 1);
  const header = hash && chain.chainStore.blockHeader(hash);
  if (!header || !bytesEqual(header.prevHash, b.hash)) throw unknownBlock();
  return header;
}

const sameEpoch = (a: BlockHeader, b: BlockHeader) => toHex(a.lite.epochId) === toHex(b.lite.epochId);

/** nearcore's create_light_client_block_view for `b`: needs the two blocks after it. */
function lightClientBlockView(chain: ChainHandle, b: BlockHeader): object {
  const next = nextHeader(chain, b);
  const afterNext = nextHeader(chain, next);
  // The hash of next's inner parts without its prev hash: block hash = combine(inner, prev_hash).
  const nextInner = combineHash(sha256(encodeInnerLite(next.lite)), innerRestHash(next.rest));
  // nearcore's LightClientBlockView field order, which is not its LightClientBlockLiteView's.
  const lite = blockHeaderLiteView(b);
  return {
    prev_block_hash: lite.prev_block_hash,
    next_block_inner_hash: base58Encode(nextInner),
    inner_lite: lite.inner_lite,
    inner_rest_hash: lite.inner_rest_hash,
    next_bps: validatorsOrderedView(
      chain.genesis.config,
      epochStakes(chain.store, chain.genesis.config, b.lite.nextEpochId).stakes,
    ),
    approvals_after_next: afterNext.rest.approvals.map((a) => (a ? formatSignature(a) : null)),
  };
}

/** nearcore's Chain::create_light_client_block for the block `header`. */
function createLightClientBlock(chain: ChainHandle, header: BlockHeader): object {
  let final = headerOf(chain, header.rest.lastFinalBlock);
  const twoAhead = headerAt(chain, final.lite.height + 2);
  if (!sameEpoch(twoAhead, final)) {
    const oneAhead = headerAt(chain, final.lite.height + 1);
    final = headerOf(
      chain,
      sameEpoch(oneAhead, final) ? oneAhead.rest.lastFinalBlock : final.rest.lastFinalBlock,
    );
  }
  return lightClientBlockView(chain, final);
}

/** The index of the epoch with this id (see epoch.ts for how ids are chosen). */
function epochIndexOf(chain: ChainHandle, epochId: CryptoHash): number | null {
  const cfg = chain.genesis.config;
  if (toHex(epochId) === toHex(ZERO_HASH)) return 0;
  if (toHex(epochId) === toHex(chain.chainStore.genesisHash() ?? ZERO_HASH)) return 1;
  const h = chain.chainStore.blockHeader(epochId);
  if (!h) return null;
  return (h.lite.height - cfg.genesisHeight) / cfg.epochLength + 1;
}

export function nextLightClientBlock(chain: ChainHandle, lastBlockHash: CryptoHash): object | null {
  const last = chain.chainStore.blockHeader(lastBlockHash);
  if (!last) throw unknownBlock();
  const head = chain.headHeader();
  const headEpoch = toHex(head.lite.epochId);
  if (toHex(last.lite.epochId) === headEpoch || toHex(last.lite.nextEpochId) === headEpoch) {
    const view = createLightClientBlock(chain, head) as { inner_lite: { height: number } };
    return view.inner_lite.height <= last.lite.height ? null : view;
  }
  // The block saved for the client's next epoch: built from that epoch's last block, when the
  // first block of the epoch after it arrived.
  const cfg = chain.genesis.config;
  const nextEpoch = epochIndexOf(chain, last.lite.nextEpochId);
  if (nextEpoch === null) return null;
  const lastOfNext = cfg.genesisHeight + (nextEpoch + 1) * cfg.epochLength;
  if (lastOfNext + 1 > head.lite.height) return null;
  const epochLast = headerAt(chain, lastOfNext);
  if (toHex(epochLast.lite.epochId) !== toHex(last.lite.nextEpochId)) return null;
  return createLightClientBlock(chain, epochLast);
}
