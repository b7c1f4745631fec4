// The method table: one file per method, named exactly like the RPC method.

import { block } from './block.js';
import { block_effects } from './block_effects.js';
import { broadcast_tx_async } from './broadcast_tx_async.js';
import { broadcast_tx_commit } from './broadcast_tx_commit.js';
import { changes } from './changes.js';
import { chunk } from './chunk.js';
import { client_config } from './client_config.js';
import { EXPERIMENTAL_call_function } from './EXPERIMENTAL_call_function.js';
import { EXPERIMENTAL_changes } from './EXPERIMENTAL_changes.js';
import { EXPERIMENTAL_changes_in_block } from './EXPERIMENTAL_changes_in_block.js';
import { EXPERIMENTAL_congestion_level } from './EXPERIMENTAL_congestion_level.js';
import { EXPERIMENTAL_genesis_config } from './EXPERIMENTAL_genesis_config.js';
import { EXPERIMENTAL_light_client_block_proof } from './EXPERIMENTAL_light_client_block_proof.js';
import { EXPERIMENTAL_light_client_proof } from './EXPERIMENTAL_light_client_proof.js';
import { EXPERIMENTAL_maintenance_windows } from './EXPERIMENTAL_maintenance_windows.js';
import { EXPERIMENTAL_protocol_config } from './EXPERIMENTAL_protocol_config.js';
import { EXPERIMENTAL_receipt } from './EXPERIMENTAL_receipt.js';
import { EXPERIMENTAL_receipt_to_tx } from './EXPERIMENTAL_receipt_to_tx.js';
import { EXPERIMENTAL_split_storage_info } from './EXPERIMENTAL_split_storage_info.js';
import { EXPERIMENTAL_tx_status } from './EXPERIMENTAL_tx_status.js';
import { EXPERIMENTAL_validators_ordered } from './EXPERIMENTAL_validators_ordered.js';
import { EXPERIMENTAL_view_access_key } from './EXPERIMENTAL_view_access_key.js';
import { EXPERIMENTAL_view_access_key_list } from './EXPERIMENTAL_view_access_key_list.js';
import { EXPERIMENTAL_view_account } from './EXPERIMENTAL_view_account.js';
import { EXPERIMENTAL_view_code } from './EXPERIMENTAL_view_code.js';
import { EXPERIMENTAL_view_gas_key_nonces } from './EXPERIMENTAL_view_gas_key_nonces.js';
import { EXPERIMENTAL_view_state } from './EXPERIMENTAL_view_state.js';
import { gas_price } from './gas_price.js';
import { genesis_config } from './genesis_config.js';
import { health } from './health.js';
import { light_client_proof } from './light_client_proof.js';
import { maintenance_windows } from './maintenance_windows.js';
import { network_info } from './network_info.js';
import { next_light_client_block } from './next_light_client_block.js';
import { query } from './query.js';
import { sandbox_fast_forward } from './sandbox_fast_forward.js';
import { sandbox_patch_state } from './sandbox_patch_state.js';
import { send_tx } from './send_tx.js';
import { status } from './status.js';
import { tx } from './tx.js';
import type { MethodHandler } from './types.js';
import { validators } from './validators.js';

export const METHODS: Readonly<Record<string, MethodHandler>> = {
  block,
  block_effects,
  broadcast_tx_async,
  broadcast_tx_commit,
  EXPERIMENTAL_call_function,
  EXPERIMENTAL_changes,
  changes,
  EXPERIMENTAL_changes_in_block,
  chunk,
  client_config,
  EXPERIMENTAL_congestion_level,
  gas_price,
  EXPERIMENTAL_genesis_config,
  genesis_config,
  health,
  EXPERIMENTAL_light_client_block_proof,
  EXPERIMENTAL_light_client_proof,
  light_client_proof,
  EXPERIMENTAL_maintenance_windows,
  maintenance_windows,
  network_info,
  next_light_client_block,
  EXPERIMENTAL_protocol_config,
  query,
  EXPERIMENTAL_receipt,
  EXPERIMENTAL_receipt_to_tx,
  sandbox_fast_forward,
  sandbox_patch_state,
  send_tx,
  EXPERIMENTAL_split_storage_info,
  status,
  tx,
  EXPERIMENTAL_tx_status,
  validators,
  EXPERIMENTAL_validators_ordered,
  EXPERIMENTAL_view_access_key,
  EXPERIMENTAL_view_access_key_list,
  EXPERIMENTAL_view_gas_key_nonces,
  EXPERIMENTAL_view_account,
  EXPERIMENTAL_view_code,
  EXPERIMENTAL_view_state,
};

/** Methods a backend offers only as a sandbox, with the backend member that serves each. */
export const SANDBOX_METHODS: Readonly<Record<string, 'sandboxPatchState' | 'sandboxFastForward'>> = {
  sandbox_patch_state: 'sandboxPatchState',
  sandbox_fast_forward: 'sandboxFastForward',
};

export type { MethodHandler };
