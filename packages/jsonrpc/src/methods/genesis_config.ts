import type { MethodHandler } from './types.js';

export const genesis_config: MethodHandler = (_params, backend) => backend.genesisConfig();
