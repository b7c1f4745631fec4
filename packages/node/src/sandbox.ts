// sandbox_patch_state and sandbox_fast_forward, as nearcore's sandbox build offers them.
import { type Chain, StateRecordError, stateRecordsToWrites } from '@nearlite/chain';
import { RpcParseError } from '@nearlite/jsonrpc';
import { InternalError } from '@nearlite/primitives';
import type { SandboxService } from './rpc_backend.js';

export function createSandboxService(chain: Chain): SandboxService {
  return {
    async patchState(records) {
      let writes: ReturnType<typeof stateRecordsToWrites>;
      try {
        writes = stateRecordsToWrites(records);
      } catch (err) {
        // nearcore refuses a record its serde cannot read while parsing the request's params.
        if (err instanceof StateRecordError) throw new RpcParseError(err.message);
        throw err;
      }
      if (!chain.canProduce)
        throw new InternalError('this node holds no validator key and cannot produce blocks');
      const applied = chain.patchState(writes);
      // Produce the block that carries the patch now rather than waiting for the timer; if that
      // block fails, `applied` rejects with its error and the caller gets it.
      await chain.produceBlock().catch(() => undefined);
      await applied;
      return {};
    },
    async fastForward(deltaHeight) {
      if (!chain.canProduce)
        throw new InternalError('this node holds no validator key and cannot produce blocks');
      for (let i = 0; i < deltaHeight; i++) await chain.produceBlock();
      return {};
    },
  };
}
