import { accountId, requireField, structFields } from '../params.js';
import type { MethodHandler } from './types.js';

/** `{account_id}` or `[account_id]`; any valid account id, validator or not. */
export const maintenance_windows: MethodHandler = (params, backend) => {
  const p = structFields(params, 'RpcMaintenanceWindowsRequest', ['account_id']);
  return backend.maintenanceWindows(accountId(requireField(p, 'account_id')));
};
