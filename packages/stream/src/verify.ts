// What a follower checks of its source before it stores a block. A block is accepted only when its
// hash is recomputed from its header, it links to the block stored before it, its header and chunk
// headers hold nearcore's JSON types, each chunk header's hash is recomputed from its fields and the
// header's `chunk_headers_root` from those hashes (so the block hash vouches for every chunk header
// field; from protocol 57, the oldest real chunks the tests hold), every chunk header in its shards
// is the block's own `chunks[]` entry, every outcome names this block, and outcome ids are the
// transaction hashes and receipt ids they belong to. Not checked, and answered as published: the
// chunks' transactions against `tx_root` (nearcore's SignedTransactionView omits the transaction's
// `block_hash`, which its borsh and hash include), the receipts and outcomes against their roots,
// and the block's signature (it needs the epoch's validator keys). A follower trusts its source for
// those, as NEAR's read-rpc trusts NEAR Lake.
// A failure names the height and the check; the caller stores nothing of that block. The follower
// also checks the genesis a history's first block shows against its own (check `genesis`).
import { base58Encode } from '@nearlite/primitives';
import { CHUNK_HASH_CHECKED_FROM, chunkHeadersRoot, verifiedChunkVersion } from './chunk_hash.js';
import { HeaderViewError } from './header_errors.js';
import { HeaderLayout, verifiedHeaderLayout } from './header_hash.js';
import type { StreamerMessage } from './message.js';
import { chunkHeaderTypeError, timestampsAgree, viewTypeError } from './view_types.js';

export const VerifyCheck = {
  Shape: 'shape',
  BlockHash: 'block_hash',
  PrevHash: 'prev_hash',
  Height: 'height',
  ChunkHeader: 'chunk_header',
  ChunkHash: 'chunk_hash',
  ChunkHeadersRoot: 'chunk_headers_root',
  OutcomeBlockHash: 'outcome_block_hash',
  TxOutcomeId: 'tx_outcome_id',
  ReceiptOutcomeId: 'receipt_outcome_id',
  /** The stream's genesis is not the follower's genesis.json's (checked by the follower). */
  Genesis: 'genesis',
} as const;
export type VerifyCheck = (typeof VerifyCheck)[keyof typeof VerifyCheck];

export class BlockVerificationError extends Error {
  override readonly name = 'BlockVerificationError';
  constructor(
    readonly height: number,
    readonly check: VerifyCheck,
    readonly detail: string,
  ) {
    super(`block ${height} refused (${check}): ${detail}`);
  }
}

/** The block the message must extend: the follower's cursor. */
export interface PrevBlock {
  readonly hash: string;
  readonly height: number;
}

/** The block at `height` with `prevHash` extends `prev`: the check that needs the block before it. */
export function verifyLink(height: number, prevHash: string, prev: PrevBlock): void {
  if (prevHash !== prev.hash) {
    // Heights between were answered as having no block: one of them may be a block the source lacks.
    const between =
      height - prev.height === 2
        ? `; height ${prev.height + 1} was answered as having no block`
        : height - prev.height > 2
          ? `; heights ${prev.height + 1}..${height - 1} were answered as having no block`
          : '';
    throw new BlockVerificationError(
      height,
      VerifyCheck.PrevHash,
      `prev_hash ${prevHash} is not the stored block ${prev.height} (${prev.hash})${between}`,
    );
  }
  if (height <= prev.height)
    throw new BlockVerificationError(
      height,
      VerifyCheck.Height,
      `height is not above the stored block ${prev.height}`,
    );
}

export interface VerifyOptions {
  /** Absent for the first followed block: its link cannot be checked against anything stored. */
  readonly prev?: PrevBlock | null;
}

/** Deep equality of parsed JSON values, ignoring key order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'bigint' || typeof b === 'bigint') return String(a) === String(b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ob = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(ob, k) && jsonEqual((a as Record<string, unknown>)[k], ob[k]));
}

/**
 * The shard's chunk header against the block's entry. Older nearcore indexers (the 2023 Lake files)
 * wrote `height_included: 0` in the shard's copy: the stored chunk does not record where it was
 * included. Every other field must be equal.
 */
function sameChunkHeader(own: Record<string, unknown>, shards: Record<string, unknown>): boolean {
  if (shards.height_included === 0 && own.height_included !== 0) {
    return jsonEqual({ ...own, height_included: 0 }, shards);
  }
  return jsonEqual(own, shards);
}

export function verifyStreamerMessage(msg: StreamerMessage, opts: VerifyOptions = {}): void {
  try {
    verifyMessage(msg, opts);
  } catch (err) {
    if (err instanceof BlockVerificationError) throw err;
    // A member missing or of another type than nearcore writes (a chunk without `transactions`, a
    // transaction without `outcome`): the block is refused like any other failed check.
    const height = msg?.block?.header?.height;
    throw new BlockVerificationError(
      typeof height === 'number' ? height : -1,
      VerifyCheck.Shape,
      `the message is not a block stream message: ${(err as Error).message}`,
    );
  }
}

function verifyMessage(msg: StreamerMessage, opts: VerifyOptions): void {
  const header = msg?.block?.header;
  const height = typeof header?.height === 'number' ? header.height : -1;
  const fail = (check: VerifyCheck, detail: string): never => {
    throw new BlockVerificationError(height, check, detail);
  };
  if (!header || height < 0 || typeof header.hash !== 'string' || !Array.isArray(msg.shards)) {
    fail(VerifyCheck.Shape, 'the message has no block header, height, hash or shards');
  }

  const typeError = viewTypeError(msg.block);
  if (typeError !== null) fail(VerifyCheck.Shape, typeError);

  let layout: number | null = null;
  try {
    layout = verifiedHeaderLayout(header, Array.isArray(msg.block.chunks) ? msg.block.chunks : undefined);
  } catch (err) {
    fail(VerifyCheck.BlockHash, `the header does not decode: ${(err as Error).message}`);
  }
  if (layout === null) fail(VerifyCheck.BlockHash, `hash ${header.hash} does not match the header's fields`);
  // V6 no longer hashes the retired challenge fields; nearcore's view shows their defaults, so any
  // other value is one the hash does not vouch for.
  if (layout === HeaderLayout.V6 && !challengesRetired(header as Record<string, unknown>))
    fail(VerifyCheck.Shape, 'a V6 header shows challenges_root or challenges_result other than none');
  if (!timestampsAgree(header))
    fail(VerifyCheck.Shape, 'header fields timestamp and timestamp_nanosec differ');

  if (opts.prev) verifyLink(height, header.prev_hash, opts.prev);

  const blockHash = header.hash;
  const chunks = Array.isArray(msg.block.chunks) ? msg.block.chunks : null;
  if (chunks && header.latest_protocol_version >= CHUNK_HASH_CHECKED_FROM)
    verifyChunkHeaders(header, chunks, fail);
  if (chunks) verifyShardsComplete(msg, chunks, fail);
  for (const shard of msg.shards) {
    const chunk = shard.chunk;
    if (chunk) {
      const chunkError = typeof chunk.author === 'string' ? chunkHeaderTypeError(chunk.header) : 'no author';
      if (chunkError !== null) fail(VerifyCheck.Shape, `shard ${shard.shard_id}: ${chunkError}`);
      if (chunks) {
        const own = chunks.find((c) => c.shard_id === chunk.header.shard_id);
        if (!own || !sameChunkHeader(own, chunk.header)) {
          fail(
            VerifyCheck.ChunkHeader,
            `shard ${shard.shard_id}: chunk header ${chunk.header.chunk_hash} is not the block's chunks[] entry`,
          );
        }
      }
      for (const t of chunk.transactions) {
        const o = t.outcome.execution_outcome;
        if (o.block_hash !== blockHash) {
          fail(
            VerifyCheck.OutcomeBlockHash,
            `outcome of transaction ${t.transaction.hash} names block ${o.block_hash}`,
          );
        }
        if (o.id !== t.transaction.hash) {
          fail(
            VerifyCheck.TxOutcomeId,
            `outcome id ${o.id} is not the transaction hash ${t.transaction.hash}`,
          );
        }
      }
    }
    for (const r of shard.receipt_execution_outcomes) {
      const o = r.execution_outcome;
      if (o.block_hash !== blockHash) {
        fail(
          VerifyCheck.OutcomeBlockHash,
          `outcome of receipt ${r.receipt.receipt_id} names block ${o.block_hash}`,
        );
      }
      if (o.id !== r.receipt.receipt_id) {
        fail(
          VerifyCheck.ReceiptOutcomeId,
          `outcome id ${o.id} is not the receipt id ${r.receipt.receipt_id}`,
        );
      }
    }
  }
}

/**
 * nearcore's indexer writes one shard for every shard of the block, each once, and gives every chunk
 * new in the block (`height_included` its height) to its shard (chain/indexer/src/streamer/mod.rs,
 * build_streamer_message). A message that leaves a shard or its new chunk out would store the block
 * without that chunk's transactions, outcomes and state changes.
 */
function verifyShardsComplete(
  msg: StreamerMessage,
  chunks: StreamerMessage['block']['chunks'],
  fail: (check: VerifyCheck, detail: string) => never,
): void {
  const byId = new Map<number, StreamerMessage['shards'][number]>();
  for (const shard of msg.shards) {
    if (byId.has(shard.shard_id)) fail(VerifyCheck.Shape, `shard ${shard.shard_id} is in the message twice`);
    byId.set(shard.shard_id, shard);
  }
  for (const c of chunks) {
    const id = Number(c.shard_id);
    const shard = byId.get(id);
    if (!shard) fail(VerifyCheck.Shape, `shard ${id} of the block is not in the message`);
    if (c.height_included === msg.block.header.height && shard.chunk?.header.chunk_hash !== c.chunk_hash) {
      fail(
        VerifyCheck.ChunkHeader,
        `shard ${c.shard_id}: the block's new chunk ${c.chunk_hash} is not in the message`,
      );
    }
  }
  if (byId.size !== chunks.length)
    fail(VerifyCheck.Shape, `the message has ${byId.size} shards, the block ${chunks.length}`);
}

/** Each chunk header against its hash, and the hashes against the header's `chunk_headers_root`. */
function verifyChunkHeaders(
  header: StreamerMessage['block']['header'],
  chunks: StreamerMessage['block']['chunks'],
  fail: (check: VerifyCheck, detail: string) => never,
): void {
  const views = chunks as unknown as Record<string, unknown>[];
  try {
    for (const c of views) {
      if (verifiedChunkVersion(c) === null) {
        fail(
          VerifyCheck.ChunkHash,
          `shard ${String(c.shard_id)}: chunk hash ${String(c.chunk_hash)} does not match its header's fields`,
        );
      }
    }
    const root = base58Encode(chunkHeadersRoot(views));
    if (root !== header.chunk_headers_root && !legacyGenesis(header)) {
      fail(
        VerifyCheck.ChunkHeadersRoot,
        `the chunk headers make root ${root}, the header says ${header.chunk_headers_root}`,
      );
    }
  } catch (err) {
    if (err instanceof HeaderViewError) fail(VerifyCheck.ChunkHash, err.message);
    throw err;
  }
}

/** The all-zero hash as views write it: a genesis block's `prev_hash`. */
export const ZERO_HASH_TEXT = '11111111111111111111111111111111';

/** nearlite before it committed its genesis block to that block's chunks wrote a zero root there. */
function legacyGenesis(header: StreamerMessage['block']['header']): boolean {
  return header.prev_hash === ZERO_HASH_TEXT && header.chunk_headers_root === ZERO_HASH_TEXT;
}

/** The challenge fields as nearcore's view shows them once V6 retired them: absent, or zero and empty. */
function challengesRetired(header: Record<string, unknown>): boolean {
  const root = header.challenges_root;
  const result = header.challenges_result;
  return (
    (root === undefined || root === ZERO_HASH_TEXT) &&
    (result === undefined || (Array.isArray(result) && result.length === 0))
  );
}
