import { blockReference, expectStruct } from '../params.js';
import type { MethodHandler } from './types.js';

export const EXPERIMENTAL_protocol_config: MethodHandler = (params, backend) =>
  backend.protocolConfig(blockReference(expectStruct(params, 'RpcProtocolConfigRequest')));
