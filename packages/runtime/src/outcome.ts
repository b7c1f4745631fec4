// Execution outcomes: stored form, nearcore's to_hashes() (the merkle leaves clients verify against
// outcome roots) and the JSON view.
import {
  BorshError,
  BorshReader,
  BorshWriter,
  base58Encode,
  type CryptoHash,
  sha256,
  stringifyJson,
  toBase64,
  u64View,
  utf8,
} from '@nearlite/primitives';
import {
  type ExecutionMetadata,
  executionMetadataView,
  readMetadata,
  writeMetadata,
} from './execution_metadata.js';

export type ExecutionStatus =
  | { readonly kind: 'Unknown' }
  | { readonly kind: 'Failure'; readonly error: object }
  | { readonly kind: 'SuccessValue'; readonly value: Uint8Array }
  | { readonly kind: 'SuccessReceiptId'; readonly receiptId: CryptoHash };

export interface ExecutionOutcome {
  readonly id: CryptoHash;
  readonly logs: readonly string[];
  readonly receiptIds: readonly CryptoHash[];
  readonly gasBurnt: bigint;
  readonly tokensBurnt: bigint;
  readonly executorId: string;
  readonly status: ExecutionStatus;
  /** V1 for transactions, V4 (gas profile and contracts) for receipts; absent in old stored bytes. */
  readonly metadata?: ExecutionMetadata;
}

function writeStatus(w: BorshWriter, s: ExecutionStatus, partial: boolean): void {
  switch (s.kind) {
    case 'Unknown':
      w.u8(0);
      return;
    case 'Failure':
      w.u8(1);
      // PartialExecutionStatus drops the error, so clients can hash without nearcore's error borsh.
      if (!partial) w.string(stringifyJson(s.error));
      return;
    case 'SuccessValue':
      w.u8(2).bytes(s.value);
      return;
    case 'SuccessReceiptId':
      w.u8(3).fixed(s.receiptId);
  }
}

export function encodeOutcome(o: ExecutionOutcome): Uint8Array {
  const w = new BorshWriter(256);
  w.fixed(o.id)
    .vec(o.logs, (w, l) => w.string(l))
    .vec(o.receiptIds, (w, r) => w.fixed(r));
  w.u64(o.gasBurnt).u128(o.tokensBurnt).string(o.executorId);
  writeStatus(w, o.status, false);
  // Trailing and optional, so outcomes stored before it was added still decode (as version 3).
  if (o.metadata !== undefined) writeMetadata(w, o.metadata);
  return w.written();
}

export function decodeOutcome(bytes: Uint8Array): ExecutionOutcome {
  const r = new BorshReader(bytes);
  const id = r.fixed(32);
  const logs = r.vec((r) => r.string());
  const receiptIds = r.vec((r) => r.fixed(32));
  const gasBurnt = r.u64();
  const tokensBurnt = r.u128();
  const executorId = r.string();
  const tag = r.u8();
  let status: ExecutionStatus;
  if (tag === 0) status = { kind: 'Unknown' };
  else if (tag === 1) status = { kind: 'Failure', error: JSON.parse(r.string()) as object };
  else if (tag === 2) status = { kind: 'SuccessValue', value: r.bytes() };
  else if (tag === 3) status = { kind: 'SuccessReceiptId', receiptId: r.fixed(32) };
  else throw new BorshError(`unknown execution status ${tag}`);
  const o: ExecutionOutcome = { id, logs, receiptIds, gasBurnt, tokensBurnt, executorId, status };
  if (r.remaining === 0) return o;
  const metadata = readMetadata(r);
  r.end();
  return { ...o, metadata };
}

/** nearcore's ExecutionOutcomeWithId::to_hashes: [id, hash(PartialExecutionOutcome), ...hash(log)]. */
export function outcomeHashes(o: ExecutionOutcome): CryptoHash[] {
  const w = new BorshWriter(256);
  w.vec(o.receiptIds, (w, r) => w.fixed(r))
    .u64(o.gasBurnt)
    .u128(o.tokensBurnt)
    .string(o.executorId);
  writeStatus(w, o.status, true);
  return [o.id, sha256(w.toBytes()), ...o.logs.map((l) => sha256(utf8(l)))];
}

export function executionStatusView(s: ExecutionStatus): object | string {
  switch (s.kind) {
    case 'Unknown':
      return 'Unknown';
    case 'Failure':
      return { Failure: s.error };
    case 'SuccessValue':
      return { SuccessValue: toBase64(s.value) };
    case 'SuccessReceiptId':
      return { SuccessReceiptId: base58Encode(s.receiptId) };
  }
}

export function outcomeView(o: ExecutionOutcome): object {
  return {
    logs: o.logs,
    receipt_ids: o.receiptIds.map((r) => base58Encode(r)),
    gas_burnt: u64View(o.gasBurnt),
    tokens_burnt: o.tokensBurnt.toString(),
    executor_id: o.executorId,
    status: executionStatusView(o.status),
    metadata: o.metadata ? executionMetadataView(o.metadata) : { version: 3, gas_profile: [] },
  };
}
