import { sandboxFailure } from '../errors.js';
import { requireField, structFields } from '../params.js';
import { invalidType } from '../serde.js';
import type { MethodHandler } from './types.js';

/**
 * `{records: [StateRecord]}` or `[[StateRecord]]` (a plain struct, which serde also reads from a
 * sequence); other keys are ignored (near-workspaces sends its whole builder).
 * The records themselves are checked by the backend, which throws RpcParseError for a bad one.
 */
export const sandbox_patch_state: MethodHandler = async (params, backend) => {
  const records = requireField(structFields(params, 'RpcSandboxPatchStateRequest', ['records']), 'records');
  if (!Array.isArray(records)) throw invalidType(records, 'a sequence');
  try {
    return await backend.sandboxPatchState!(records);
  } catch (err) {
    throw sandboxFailure(err);
  }
};
