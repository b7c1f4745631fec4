// The EXPERIMENTAL_ view methods: one `query` kind each, its fields beside the block reference and no
// `request_type`, answered with query's result. Unlike `query`, every failure is an error of its own:
// a missing access key and a failed call are HANDLER_ERRORs, not results, and what `query` calls a
// collected block or an untracked shard is an INTERNAL_ERROR.
import { HandlerError, rustDebug } from '@nearlite/primitives';
import type { BlockReference, QueryRequest } from '../backend.js';
import { blockReference, expectStruct } from '../params.js';
import { parseQueryRequest } from './query.js';
import type { MethodHandler } from './types.js';

/** Rust's Debug of a BlockReference, as nearcore prints it in UNKNOWN_BLOCK's text. */
function referenceDebug(info: Record<string, unknown> | undefined): string {
  const ref = (info?.block_reference ?? {}) as Record<string, unknown>;
  if ('block_id' in ref) {
    const id = ref.block_id;
    return typeof id === 'string' ? `BlockId(Hash(${id}))` : `BlockId(Height(${String(id)}))`;
  }
  if ('sync_checkpoint' in ref) return `SyncCheckpoint(${VARIANTS[String(ref.sync_checkpoint)]})`;
  return `Finality(${VARIANTS[String(ref.finality)]})`;
}

/** The Rust variants behind the wire names of Finality and SyncCheckpoint. */
const VARIANTS: Readonly<Record<string, string>> = {
  optimistic: 'None',
  'near-final': 'DoomSlug',
  final: 'Final',
  genesis: 'Genesis',
  earliest_available: 'EarliestAvailable',
};

/** query's error as these methods answer it. */
function asViewError(err: unknown): unknown {
  if (!(err instanceof HandlerError)) return err;
  const info = err.info ?? {};
  switch (err.cause) {
    case 'GARBAGE_COLLECTED_BLOCK':
      return HandlerError.internal(
        `The data for block #${String(info.block_height)} is garbage collected on this node, use an archival node to fetch historical data`,
      );
    case 'NO_SYNCED_BLOCKS':
      return HandlerError.internal('There are no fully synchronized blocks on the node yet');
    case 'UNAVAILABLE_SHARD':
      return HandlerError.internal(`The node does not track the shard ID ${String(info.requested_shard_id)}`);
    case 'UNKNOWN_BLOCK':
      return new HandlerError(
        'UNKNOWN_BLOCK',
        err.info,
        `Block either has never been observed on the node or has been garbage collected: ${referenceDebug(err.info)}`,
      );
    case 'UNKNOWN_ACCESS_KEY':
      return new HandlerError(
        'UNKNOWN_ACCESS_KEY',
        err.info,
        `Access key for public key ${String(info.public_key)} does not exist while viewing`,
      );
    case 'CONTRACT_EXECUTION_ERROR': {
      const { vm_error, block_height, block_hash } = info;
      return new HandlerError(
        'CONTRACT_EXECUTION_ERROR',
        { vm_error, block_height, block_hash },
        `Function call returned an error: ${rustDebug(vm_error)}`,
      );
    }
    default:
      return err;
  }
}

/**
 * The handler of one view method: params are an object only (`structName` for serde's message), the
 * kind's own fields read before the block reference.
 */
export function viewMethod(structName: string, requestType: QueryRequest['requestType']): MethodHandler {
  return async (params, backend) => {
    const p = expectStruct(params, structName);
    const req = parseQueryRequest({ ...p, request_type: requestType });
    const ref: BlockReference = blockReference(p);
    try {
      return await backend.query(ref, req);
    } catch (err) {
      throw asViewError(err);
    }
  };
}
