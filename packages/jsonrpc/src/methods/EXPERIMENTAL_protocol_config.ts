import { blockReferenceEnum } from '../params.js';
import type { MethodHandler } from './types.js';

/** The BlockReference enum read from the params themselves (chain/jsonrpc/src/api/config.rs). */
export const EXPERIMENTAL_protocol_config: MethodHandler = (params, backend) =>
  backend.protocolConfig(blockReferenceEnum(params));
