import type { ChangesRequest } from '../backend.js';
import {
  accountId,
  base64,
  blockReference,
  expectStruct,
  type Obj,
  publicKey,
  requireField,
} from '../params.js';
import { invalidType, missingField, unknownVariant } from '../serde.js';
import type { MethodHandler } from './types.js';

const CHANGES_TYPES = [
  'account_changes',
  'single_access_key_changes',
  'all_access_key_changes',
  'contract_code_changes',
  'data_changes',
] as const;

function seq(v: unknown): unknown[] {
  if (!Array.isArray(v)) throw invalidType(v, 'a sequence');
  return v;
}

const accountIds = (o: Obj): string[] => seq(requireField(o, 'account_ids')).map(accountId);

/** The internally tagged `StateChangesRequestView` (tag `changes_type`). */
export function parseChangesRequest(p: Obj): ChangesRequest {
  if (!Object.hasOwn(p, 'changes_type')) throw missingField('changes_type');
  const type = p.changes_type;
  if (typeof type !== 'string') throw invalidType(type, 'variant identifier');
  switch (type) {
    case 'account_changes':
    case 'all_access_key_changes':
    case 'contract_code_changes':
      return { changesType: type, accountIds: accountIds(p) };
    case 'data_changes':
      return {
        changesType: type,
        accountIds: accountIds(p),
        keyPrefix: base64(requireField(p, 'key_prefix_base64')),
      };
    case 'single_access_key_changes':
      return {
        changesType: type,
        keys: seq(requireField(p, 'keys')).map((k) => {
          const o = expectStruct(k, 'AccountWithPublicKey');
          return {
            accountId: accountId(requireField(o, 'account_id')),
            publicKey: publicKey(requireField(o, 'public_key')),
          };
        }),
      };
    default:
      throw unknownVariant(type, CHANGES_TYPES);
  }
}

/** State changes of one kind in a block (nearcore's changes_in_block_by_type). */
export const changes: MethodHandler = (params, backend) => {
  const p = expectStruct(params, 'RpcStateChangesInBlockByTypeRequest');
  return backend.changes(blockReference(p), parseChangesRequest(p));
};
