// The VM config nearcore runs a view call under at a block that did not run this node's parameters
// (one of NEAR's own networks; own_parameters.ts in the follower says which): that of the block's
// protocol version, clamped up to MIN_SUPPORTED_PROTOCOL_VERSION, the oldest version a
// current nearcore still runs (core/primitives-core/src/version.rs,
// clamp_to_supported_protocol_version, "for read-only view calls"). From 84 up, a view sees one
// difference between versions: protocol 85 turned on five flags, four of which link host functions
// (core/parameters/src/snapshots, 84 against 85: their other VM costs and limits are equal, but for
// yield_create_with_id_base, whose function 84 does not link). This node's own config is 86's,
// whose VM config is 85's.
import type { VMConfig } from '@nearlite/vm';
import { PROTOCOL_VERSION } from './runtime_config.js';

export const MIN_SUPPORTED_PROTOCOL_VERSION = 84;

const FLAGS_OF_85 = [
  'gas_key_host_fns',
  'one_yocto_on_promise',
  'p256_verify_host_fn',
  'yield_with_id_host_fns',
  'chain_id_host_fn',
] as const;

const before85 = new WeakMap<VMConfig, VMConfig>();

/**
 * The VM config of a view call at a NEAR network's block of `protocolVersion`, from this node's
 * (`own`, protocol 86's). Versions above this node's run its config: it knows no later one.
 */
export function networkViewVMConfig(own: VMConfig, protocolVersion: number): VMConfig {
  const version = Math.min(Math.max(protocolVersion, MIN_SUPPORTED_PROTOCOL_VERSION), PROTOCOL_VERSION);
  if (version >= 85) return own;
  let config = before85.get(own);
  if (config === undefined) {
    config = { ...own, ...Object.fromEntries(FLAGS_OF_85.map((flag) => [flag, false])) } as VMConfig;
    before85.set(own, config);
  }
  return config;
}
