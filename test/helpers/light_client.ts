// An independent light client, written from NEAR's light-client specification (nomicon
// "Light Client"; the algorithm near-api-js' light-client package implements as
// `validateLightClientBlock` and `validateExecutionProof`). It deliberately shares no code with
// nearlite: sha256 and ed25519 come from node:crypto, base58 from bs58, borsh is written out here.
import { createHash, createPublicKey, verify } from 'node:crypto';
import bs58 from 'bs58';

export class LightClientError extends Error {
  override name = 'LightClientError';
}

type Direction = 'Left' | 'Right';
export interface MerklePathItem {
  hash: string;
  direction: Direction;
}
export interface InnerLite {
  height: number;
  epoch_id: string;
  next_epoch_id: string;
  prev_state_root: string;
  outcome_root: string;
  timestamp?: number;
  timestamp_nanosec: string;
  next_bp_hash: string;
  block_merkle_root: string;
}
export interface BlockHeaderLite {
  prev_block_hash: string;
  inner_rest_hash: string;
  inner_lite: InnerLite;
}
export interface ValidatorStake {
  account_id: string;
  public_key: string;
  stake: string;
  validator_stake_struct_version?: string;
}
export interface LightClientBlock extends BlockHeaderLite {
  next_block_inner_hash: string;
  next_bps: ValidatorStake[] | null;
  approvals_after_next: (string | null)[];
}
export interface ExecutionOutcome {
  logs: string[];
  receipt_ids: string[];
  gas_burnt: number;
  tokens_burnt: string;
  executor_id: string;
  status: Record<string, unknown> | string;
}
export interface ExecutionProof {
  outcome_proof: { proof: MerklePathItem[]; block_hash: string; id: string; outcome: ExecutionOutcome };
  outcome_root_proof: MerklePathItem[];
  block_header_lite: BlockHeaderLite;
  block_proof: MerklePathItem[];
}

const enc = new TextEncoder();
const d58 = (s: string): Uint8Array => {
  const b = bs58.decode(s);
  if (b.length !== 32) throw new LightClientError(`not a 32-byte hash: ${s}`);
  return b;
};
export function sha256(...parts: Uint8Array[]): Uint8Array {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
}
const eq = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

// Minimal borsh: little-endian integers, u32-length-prefixed vectors and strings.
function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
}
function u64(n: bigint | number | string): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n), true);
  return b;
}
function u128(n: bigint | string): Uint8Array {
  const v = BigInt(n);
  const b = new Uint8Array(16);
  const dv = new DataView(b.buffer);
  dv.setBigUint64(0, v & 0xffffffffffffffffn, true);
  dv.setBigUint64(8, v >> 64n, true);
  return b;
}
const bytes = (b: Uint8Array): Uint8Array[] => [u32(b.length), b];
const str = (s: string): Uint8Array[] => bytes(enc.encode(s));
const cat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

function ed25519Key(pk: string): Uint8Array {
  const [curve, data] = pk.split(':');
  if (curve !== 'ed25519' || data === undefined) throw new LightClientError(`unsupported key ${pk}`);
  return bs58.decode(data);
}

export function innerLiteBytes(l: InnerLite): Uint8Array {
  return cat([
    u64(l.height),
    d58(l.epoch_id),
    d58(l.next_epoch_id),
    d58(l.prev_state_root),
    d58(l.outcome_root),
    u64(l.timestamp_nanosec ?? String(l.timestamp)),
    d58(l.next_bp_hash),
    d58(l.block_merkle_root),
  ]);
}

/** hash(hash(hash(inner_lite) ‖ inner_rest_hash) ‖ prev_hash), the block hash. */
export function blockHash(h: BlockHeaderLite): Uint8Array {
  const inner = sha256(sha256(innerLiteBytes(h.inner_lite)), d58(h.inner_rest_hash));
  return sha256(inner, d58(h.prev_block_hash));
}

export function computeRoot(leaf: Uint8Array, path: MerklePathItem[]): Uint8Array {
  let node = leaf;
  for (const p of path) {
    if (p.direction === 'Left') node = sha256(d58(p.hash), node);
    else if (p.direction === 'Right') node = sha256(node, d58(p.hash));
    else throw new LightClientError(`bad direction ${String(p.direction)}`);
  }
  return node;
}

function statusBytes(status: ExecutionOutcome['status']): Uint8Array[] {
  // PartialExecutionStatus: Unknown 0, Failure 1, SuccessValue 2 (bytes), SuccessReceiptId 3.
  if (status === 'Unknown') return [Uint8Array.of(0)];
  if (typeof status === 'object' && status !== null) {
    if ('Failure' in status) return [Uint8Array.of(1)];
    if ('SuccessValue' in status) {
      return [Uint8Array.of(2), ...bytes(new Uint8Array(Buffer.from(String(status.SuccessValue), 'base64')))];
    }
    if ('SuccessReceiptId' in status) return [Uint8Array.of(3), d58(String(status.SuccessReceiptId))];
  }
  throw new LightClientError(`bad status ${JSON.stringify(status)}`);
}

/** The outcome's merkle leaf: hash_borsh([id, hash(PartialExecutionOutcome), ...hash(log)]). */
export function outcomeHash(id: string, o: ExecutionOutcome): Uint8Array {
  const partial = cat([
    u32(o.receipt_ids.length),
    ...o.receipt_ids.map(d58),
    u64(o.gas_burnt),
    u128(o.tokens_burnt),
    ...str(o.executor_id),
    ...statusBytes(o.status),
  ]);
  const hashes = [d58(id), sha256(partial), ...o.logs.map((l) => sha256(enc.encode(l)))];
  return sha256(u32(hashes.length), ...hashes);
}

/** validateExecutionProof: the outcome is in the block, and the block is under `blockMerkleRoot`. */
export function validateExecutionProof(proof: ExecutionProof, blockMerkleRoot: Uint8Array): void {
  const op = proof.outcome_proof;
  const shardRoot = computeRoot(outcomeHash(op.id, op.outcome), op.proof);
  const outcomeRoot = computeRoot(sha256(shardRoot), proof.outcome_root_proof);
  if (!eq(outcomeRoot, d58(proof.block_header_lite.inner_lite.outcome_root))) {
    throw new LightClientError('outcome root does not match the block header');
  }
  const root = computeRoot(blockHash(proof.block_header_lite), proof.block_proof);
  if (!eq(root, blockMerkleRoot)) throw new LightClientError('block is not under the block merkle root');
}

export function validatorStakesBytes(bps: ValidatorStake[]): Uint8Array {
  return cat([
    u32(bps.length),
    ...bps.flatMap((v) => {
      if ((v.validator_stake_struct_version ?? 'V1') !== 'V1') throw new LightClientError('not V1');
      return [
        Uint8Array.of(0),
        ...str(v.account_id),
        Uint8Array.of(0),
        ed25519Key(v.public_key),
        u128(v.stake),
      ];
    }),
  ]);
}

function verifyEd25519(sig: string, msg: Uint8Array, pk: string): boolean {
  const [curve, data] = sig.split(':');
  if (curve !== 'ed25519' || data === undefined) return false;
  const spki = cat([
    Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]),
    ed25519Key(pk),
  ]);
  const key = createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' });
  return verify(null, msg, key, bs58.decode(data));
}

export interface LightClientState {
  /** The head the client trusts. */
  head: BlockHeaderLite;
  /** Block producers by epoch id (base58), learnt from `next_bps`. */
  epochBlockProducers: Map<string, ValidatorStake[]>;
}

/**
 * A client trusting the genesis block (its header as `block` answers it) and the genesis validators
 * (`genesis_config`'s), the block producers of the genesis epoch.
 */
export function genesisTrust(
  g: Record<string, unknown>,
  validators: readonly { account_id: string; public_key: string; amount: string }[],
): LightClientState {
  return {
    head: {
      prev_block_hash: String(g.prev_hash),
      inner_rest_hash: String(g.prev_hash),
      inner_lite: {
        height: Number(g.height),
        epoch_id: String(g.epoch_id),
        next_epoch_id: String(g.next_epoch_id),
        prev_state_root: String(g.prev_state_root),
        outcome_root: String(g.outcome_root),
        timestamp_nanosec: String(g.timestamp_nanosec),
        next_bp_hash: String(g.next_bp_hash),
        block_merkle_root: String(g.block_merkle_root),
      },
    },
    epochBlockProducers: new Map([
      [
        String(g.epoch_id),
        validators.map((v) => ({ account_id: v.account_id, public_key: v.public_key, stake: v.amount })),
      ],
    ]),
  };
}

/** validateLightClientBlock: accepts `b` after `state.head` or throws; then advances the state. */
export function validateLightClientBlock(state: LightClientState, b: LightClientBlock): void {
  const last = state.head.inner_lite;
  const lite = b.inner_lite;
  if (lite.height <= last.height) throw new LightClientError('height does not advance');
  if (lite.epoch_id !== last.epoch_id && lite.epoch_id !== last.next_epoch_id) {
    throw new LightClientError('epoch is neither the current nor the next one');
  }
  if (lite.epoch_id === last.next_epoch_id && b.next_bps === null) {
    throw new LightClientError('next_bps missing on an epoch change');
  }
  const bps = state.epochBlockProducers.get(lite.epoch_id);
  if (bps === undefined) throw new LightClientError('unknown block producers for the epoch');

  const current = blockHash(b);
  const next = sha256(d58(b.next_block_inner_hash), current);
  // Approval::get_data_for_sig: borsh(ApprovalInner::Endorsement(next)) ‖ (height + 2) as u64.
  const message = cat([Uint8Array.of(0), next, u64(BigInt(lite.height) + 2n)]);
  // As NEAR's bridge clients: nearcore's producer lists a slot for every approver (null for one that
  // did not sign), so a shorter list is no block of theirs.
  if (b.approvals_after_next.length < bps.length) throw new LightClientError('approval list is too short');
  let total = 0n;
  let approved = 0n;
  bps.forEach((bp, i) => {
    total += BigInt(bp.stake);
    const sig = b.approvals_after_next[i];
    if (sig === null || sig === undefined) return;
    approved += BigInt(bp.stake);
    if (!verifyEd25519(sig, message, bp.public_key))
      throw new LightClientError(`bad approval from ${bp.account_id}`);
  });
  if (approved * 3n <= total * 2n) throw new LightClientError('approved stake is not above 2/3');

  if (b.next_bps !== null) {
    if (!eq(sha256(validatorStakesBytes(b.next_bps)), d58(lite.next_bp_hash))) {
      throw new LightClientError('next_bps do not hash to next_bp_hash');
    }
    state.epochBlockProducers.set(lite.next_epoch_id, b.next_bps);
  }
  state.head = { prev_block_hash: b.prev_block_hash, inner_rest_hash: b.inner_rest_hash, inner_lite: lite };
}
