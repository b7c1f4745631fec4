// light_client_proof: an execution outcome, the path to its shard's outcome root, the path from
// there to the outcome root of the block that carries it (the next block with a new chunk of the
// shard), and the path from that block to the light client head's block_merkle_root — as nearcore's
// view client (GetExecutionOutcome) and GetBlockProof build them.
import { base58Encode, type CryptoHash, HandlerError, RawJson, sha256, toHex } from '@nearlite/primitives';
import { DBCol, u64be } from '@nearlite/store';
import type { BlockHeader } from '../block_header.js';
import { decodeMerkleTree } from '../block_merkle_tree.js';
import type { ChainHandle } from '../chain_handle.js';
import { merklizeLeaves } from '../merkle.js';
import type { TxCodecs } from '../tx/codecs.js';
import { loadOutcome } from '../tx/tx_status.js';
import { type BlockMerkleSource, pastBlockProof } from './block_proof.js';
import { blockHeaderLiteView } from './views.js';

export type TransactionOrReceiptId =
  | { readonly type: 'transaction'; readonly transactionHash: CryptoHash; readonly senderId: string }
  | { readonly type: 'receipt'; readonly receiptId: CryptoHash; readonly receiverId: string };

const pathView = (p: readonly { hash: CryptoHash; direction: 'Left' | 'Right' }[]) =>
  p.map((x) => ({ hash: base58Encode(x.hash), direction: x.direction }));

function unknownBlock(hash: CryptoHash): HandlerError {
  const message = `DB Not Found Error: BLOCK HEADER: ${base58Encode(hash)}`;
  return new HandlerError('UNKNOWN_BLOCK', {}, message);
}

/** The last final block's height: proofs are only given between final, canonical blocks. */
function finalHeight(chain: ChainHandle): number {
  const h = chain.chainStore.blockHeader(chain.headHeader().rest.lastFinalBlock);
  return h?.lite.height ?? chain.genesis.config.genesisHeight;
}

function checkFinalAndCanonical(chain: ChainHandle, headers: readonly BlockHeader[]): void {
  const last = finalHeight(chain);
  for (const h of headers) {
    const canonical = chain.chainStore.blockHashByHeight(h.lite.height);
    if (h.lite.height > last || !canonical || toHex(canonical) !== toHex(h.hash)) {
      throw HandlerError.internal(`${base58Encode(h.hash)} not on current chain`);
    }
  }
}

/** The block (by ordinal) merkle path of `block` under `head.lite.blockMerkleRoot`. */
export function blockProof(chain: ChainHandle, block: BlockHeader, head: BlockHeader): object[] {
  checkFinalAndCanonical(chain, [block, head]);
  // The head's own tree holds the blocks before it: the head proves itself with an empty path.
  if (block.lite.height >= head.lite.height) {
    if (toHex(block.hash) === toHex(head.hash)) return [];
    throw HandlerError.internal(
      `block ${base58Encode(block.hash)} is ahead of head block ${base58Encode(head.hash)}`,
    );
  }
  const hashOfOrdinal = (ordinal: number): CryptoHash => {
    const hash =
      chain.store.get(DBCol.BlockOrdinal, u64be(ordinal)) ??
      chain.chainStore.blockHashByHeight(chain.genesis.config.genesisHeight + ordinal - 1);
    if (!hash) throw HandlerError.internal(`the block of ordinal ${ordinal} is not kept by this node`);
    return hash;
  };
  const src: BlockMerkleSource = {
    hashOfOrdinal,
    treeOfSize(size) {
      const tree = chain.store.get(DBCol.BlockMerkleTree, hashOfOrdinal(size));
      if (!tree)
        throw HandlerError.internal(`the block merkle tree of ordinal ${size} is not kept by this node`);
      return decodeMerkleTree(tree);
    },
  };
  // Leaves are ordinals 1.. (genesis is 1); the head's root covers every block before it.
  return pathView(pastBlockProof(src, block.rest.blockOrdinal - 1, head.rest.blockOrdinal - 1));
}

export function lightClientExecutionProof(
  chain: ChainHandle,
  codecs: TxCodecs,
  id: TransactionOrReceiptId,
  lightClientHead: CryptoHash,
): object {
  const [outcomeId, accountId] =
    id.type === 'transaction' ? [id.transactionHash, id.senderId] : [id.receiptId, id.receiverId];
  const idText = base58Encode(outcomeId);
  const blockHash =
    chain.store.get(DBCol.TransactionBlock, outcomeId) ?? chain.store.get(DBCol.ReceiptBlock, outcomeId);
  const outcome = blockHash && loadOutcome(chain, codecs, outcomeId, blockHash);
  if (!outcome) {
    throw new HandlerError(
      'UNKNOWN_TRANSACTION_OR_RECEIPT',
      { transaction_or_receipt_id: idText },
      `${idText} does not exist`,
    );
  }
  const shardIds = chain.layout.shardIds;
  const shardId = chain.layout.accountIdToShardId(accountId);
  const shardIndex = shardIds.indexOf(shardId);
  // The outcome root of a chunk is carried by the shard's next new chunk, in a later block.
  const headHeight = chain.headHeader().lite.height;
  let carrier: BlockHeader | undefined;
  for (let h = outcome.height + 1; h <= headHeight && !carrier; h++) {
    const hash = chain.chainStore.blockHashByHeight(h);
    const header = hash && chain.chainStore.blockHeader(hash);
    if (header && header.rest.chunkMask[shardIndex] === true) carrier = header;
  }
  if (!carrier) {
    throw new HandlerError(
      'NOT_CONFIRMED',
      { transaction_or_receipt_id: idText },
      `${idText} has not been confirmed`,
    );
  }
  const chunks = chain.chainStore.blockChunkHeaders(carrier.hash) ?? [];
  if (shardIndex < 0 || shardIndex >= chunks.length) {
    throw new HandlerError(
      'INCONSISTENT_STATE',
      { number_or_shards: chunks.length, execution_outcome_shard_id: shardId },
      `inconsistent state: ${chunks.length} shards, outcome in shard ${shardId}`,
    );
  }
  const roots = merklizeLeaves(chunks.map((c) => sha256(c.inner.prevOutcomeRoot)));
  const head = chain.chainStore.blockHeader(lightClientHead);
  if (!head) throw unknownBlock(lightClientHead);
  return {
    outcome_proof: {
      proof: pathView(outcome.proof),
      block_hash: base58Encode(carrier.hash),
      id: idText,
      outcome: new RawJson(outcome.decoded.viewJson),
    },
    outcome_root_proof: pathView(roots.paths[shardIndex]!),
    block_header_lite: blockHeaderLiteView(carrier),
    block_proof: blockProof(chain, carrier, head),
  };
}

/** EXPERIMENTAL_light_client_block_proof: a final block's lite header and its path to the head's root. */
export function lightClientBlockProof(
  chain: ChainHandle,
  blockHash: CryptoHash,
  lightClientHead: CryptoHash,
): object {
  const block = chain.chainStore.blockHeader(blockHash);
  if (!block) throw unknownBlock(blockHash);
  const head = chain.chainStore.blockHeader(lightClientHead);
  if (!head) throw unknownBlock(lightClientHead);
  return { block_header_lite: blockHeaderLiteView(block), block_proof: blockProof(chain, block, head) };
}
