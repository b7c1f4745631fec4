// sandbox_patch_state and sandbox_fast_forward, as nearcore's sandbox build offers them.
import { type ChainHandle, StateRecordError, stateRecordsToWrites } from '@nearlite/chain';
import type { RpcBackend } from '@nearlite/jsonrpc';
import { RpcParseError } from '@nearlite/jsonrpc';
import { InternalError } from '@nearlite/primitives';

export type SandboxMethods = Required<Pick<RpcBackend, 'sandboxPatchState' | 'sandboxFastForward'>>;

export function sandboxMethods(chain: ChainHandle, blockTimeMs: number): SandboxMethods {
  return {
    async sandboxPatchState(records) {
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
    async sandboxFastForward(deltaHeight) {
      if (!chain.canProduce)
        throw new InternalError('this node holds no validator key and cannot produce blocks');
      // As nearcore's sandbox: the head lands exactly at head + delta (blocks the timer produces
      // meanwhile count), and each skipped block moves block time on by the production delay, so
      // time-locked contracts see the time a real chain would have taken.
      await chain.fastForward(deltaHeight, BigInt(blockTimeMs) * 1_000_000n);
      return {};
    },
  };
}
