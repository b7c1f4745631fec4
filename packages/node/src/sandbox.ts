// sandbox_patch_state and sandbox_fast_forward, as nearcore's sandbox build offers them.
import { type ChainHandle, patchError, StateRecordError, stateRecordsToWrites } from '@nearlite/chain';
import type { RpcBackend } from '@nearlite/jsonrpc';
import { RpcParseError } from '@nearlite/jsonrpc';
import { InternalError } from '@nearlite/primitives';
import { trieKeyAccount } from '@nearlite/trie';

export type SandboxMethods = Required<Pick<RpcBackend, 'sandboxPatchState' | 'sandboxFastForward'>>;

/** `stepMs`: the block time each fast-forwarded height adds (`fastForwardStepMs`). */
export function sandboxMethods(chain: ChainHandle, stepMs: number): SandboxMethods {
  let forwarding = false;
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
      // Checked against the head's state first, so a Contract record nearcore would stop at is
      // refused before it reaches a block; the block checks again against its own state.
      const err = patchError(writes, (id) =>
        chain.stateTrie(chain.head().hash, chain.layout.accountIdToShardId(id))?.get(trieKeyAccount(id)),
      );
      if (err !== null) throw new InternalError(err);
      // Produce the block that carries the patch now rather than waiting for the timer; if that
      // block fails, the patch's promise rejects with its error and the caller gets it. Both are
      // awaited together: from the chain thread the patch's failure arrives as a message of its own,
      // before the block's, and a rejection left without a handler until then stops the process.
      await Promise.all([chain.patchState(writes), chain.produceBlock().catch(() => undefined)]);
      return {};
    },
    async sandboxFastForward(delta) {
      const epochLength = chain.genesis.config.epochLength;
      // nearcore's sandbox_process_fast_forward refuses such epochs: it cannot stop three heights
      // short of an epoch's end.
      if (epochLength <= 3)
        throw fastForwardFailed('Unsupported: fast_forward with an epoch length of 3 or less');
      const max = maxFastForward(epochLength);
      const deltaHeight = Number(delta);
      if (delta > max)
        throw new RpcParseError(
          `delta_height ${delta} is above the maximum of ${max} per call (${MAX_FAST_FORWARD_BLOCKS} blocks at four an epoch of ${epochLength})`,
        );
      if (!chain.canProduce)
        throw new InternalError('this node holds no validator key and cannot produce blocks');
      // nearcore's client keeps one target at a time.
      if (forwarding)
        throw fastForwardFailed(
          'Consecutive fast_forward requests cannot be made while a current one is going on.',
        );
      // As nearcore's sandbox: the head lands at head + delta or one above (blocks the timer
      // produces meanwhile count), the heights of each epoch up to three before its end skipped,
      // and each height moves block time on as nearcore's sandbox_delta_time does (the mean
      // production delay), so time-locked contracts see the time nearcore's sandbox would show.
      forwarding = true;
      try {
        await chain.fastForward(deltaHeight, BigInt(Math.round(stepMs * 1_000_000)));
      } finally {
        forwarding = false;
      }
      return {};
    },
  };
}

/**
 * A failure the client reports to nearcore's fast-forward handler, which answers it as
 * `format!("sandbox failed to fast forward due to: {:?}", err)`: the client's text in Debug quotes.
 * The texts here hold nothing Debug would escape.
 */
function fastForwardFailed(reason: string): InternalError {
  return new InternalError(`sandbox failed to fast forward due to: "${reason}"`);
}

/**
 * The blocks one fast-forward may produce: the call waits for them all. A fast-forward makes about
 * four blocks an epoch (the one that skips, and those around the epoch's end).
 */
const MAX_FAST_FORWARD_BLOCKS = 100_000;

function maxFastForward(epochLength: number): number {
  return MAX_FAST_FORWARD_BLOCKS * Math.max(1, Math.floor(epochLength / 4));
}
