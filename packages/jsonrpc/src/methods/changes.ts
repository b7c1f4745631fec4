import type { ChangesRequest } from '../backend.js';
import { argsError } from '../errors.js';
import { accountId, base64, blockReference, expectObject, publicKey, requireField, str } from '../params.js';
import type { MethodHandler } from './types.js';

function accountIds(v: unknown): string[] {
  if (!Array.isArray(v)) throw argsError('invalid type for `account_ids`, expected a sequence');
  return v.map(accountId);
}

export function parseChangesRequest(p: Record<string, unknown>): ChangesRequest {
  const type = str(requireField(p, 'changes_type'), 'a changes type');
  switch (type) {
    case 'account_changes':
    case 'all_access_key_changes':
    case 'contract_code_changes':
      return { changesType: type, accountIds: accountIds(requireField(p, 'account_ids')) };
    case 'data_changes':
      return {
        changesType: type,
        accountIds: accountIds(requireField(p, 'account_ids')),
        keyPrefix: base64(requireField(p, 'key_prefix_base64')),
      };
    case 'single_access_key_changes': {
      const keys = requireField(p, 'keys');
      if (!Array.isArray(keys)) throw argsError('invalid type for `keys`, expected a sequence');
      return {
        changesType: type,
        keys: keys.map((k) => {
          const o = expectObject(k, 'an account public key');
          return {
            accountId: accountId(requireField(o, 'account_id')),
            publicKey: publicKey(requireField(o, 'public_key')),
          };
        }),
      };
    }
    default:
      throw argsError(
        `unknown variant \`${type}\`, expected one of \`account_changes\`, \`single_access_key_changes\`, \`all_access_key_changes\`, \`contract_code_changes\`, \`data_changes\``,
      );
  }
}

export const changes: MethodHandler = (params, backend) => {
  const p = expectObject(params);
  return backend.changes(blockReference(p), parseChangesRequest(p));
};
