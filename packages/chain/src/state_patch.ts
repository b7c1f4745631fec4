// sandbox_patch_state's writes as a block applies them: nearcore's apply_state_patch, after the
// chunk's transactions and receipts. A Contract record whose account is missing, or holds another
// code hash, stops nearcore's sandbox (it asserts); here it refuses that patch alone.
import type { TrieUpdate } from '@nearlite/trie';
import { trieKeyAccount } from '@nearlite/trie';
import type { ShardLayout } from './shard_layout.js';
import { contractRecordError, type StateWrite } from './state_records.js';

/** One caller's patch, settled by the block that carries it. */
export interface PendingPatch {
  readonly writes: readonly StateWrite[];
  readonly done: () => void;
  readonly failed: (err: unknown) => void;
}

/** A patch the state refuses when its block applies it: the block is made again without it. */
export class RefusedPatch extends Error {
  constructor(
    readonly patch: PendingPatch,
    message: string,
  ) {
    super(message);
  }
}

/** Writes the patches' records of `shardId`'s accounts, in order, as one `migration` change. */
export function applyStatePatches(
  layout: ShardLayout,
  shardId: number,
  state: TrieUpdate,
  patches: readonly PendingPatch[],
): void {
  let any = false;
  for (const patch of patches) {
    for (const w of patch.writes) {
      if (layout.accountIdToShardId(w.accountId) !== shardId) continue;
      const err = contractRecordError(w, (id) => state.get(trieKeyAccount(id)));
      if (err !== null) throw new RefusedPatch(patch, err);
      state.set(w.key, w.value);
      any = true;
    }
  }
  if (any) state.commit({ type: 'migration' });
}
