import { parseChunkRequest } from './chunk.js';
import type { MethodHandler } from './types.js';

/** The chunk is named as `chunk` names it; the answer is its shard's localized congestion level. */
export const EXPERIMENTAL_congestion_level: MethodHandler = (params, backend) =>
  backend.congestionLevel(parseChunkRequest(params));
