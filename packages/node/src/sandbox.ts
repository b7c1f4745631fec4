// sandbox_patch_state and sandbox_fast_forward, as nearcore's sandbox build offers them.
import { type Chain, StateRecordError, stateRecordToWrite } from '@nearlite/chain';
import { InternalError } from '@nearlite/primitives';
import type { SandboxService } from './rpc_backend.js';

export function createSandboxService(chain: Chain): SandboxService {
  return {
    async patchState(records) {
      let writes: ReturnType<typeof stateRecordToWrite>[];
      try {
        writes = records.map(stateRecordToWrite);
      } catch (err) {
        if (err instanceof StateRecordError) throw new InternalError(err.message);
        throw err;
      }
      if (!chain.canProduce)
        throw new InternalError('this node holds no validator key and cannot produce blocks');
      const applied = chain.patchState(writes);
      // Produce the block that carries the patch now rather than waiting for the timer.
      await chain.produceBlock();
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
