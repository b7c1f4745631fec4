// One database, one role: a produced chain (BlockMisc HEAD) or a followed history (FollowerMisc
// genesis). Each writer's rows would otherwise land beside the other's, mixing two chains.
import { HEAD_KEY } from '@nearlite/chain';
import { holdsHistory } from '@nearlite/follower';
import { DBCol, type Store, StoreError, StoreErrorCode } from '@nearlite/store';

/** Refuses a database that holds the other role's rows. */
export function checkStoreRole(store: Store, role: 'chain' | 'history', dataDir: string): void {
  if (role === 'history' && store.has(DBCol.BlockMisc, HEAD_KEY))
    throw new StoreError(
      StoreErrorCode.Kind,
      `the database at ${dataDir} holds the chain a node produced there; a follower needs a home of its own`,
    );
  if (role === 'chain' && holdsHistory(store))
    throw new StoreError(
      StoreErrorCode.Kind,
      `the database at ${dataDir} holds a followed chain's history (run --follow); a node producing blocks needs a home of its own`,
    );
}
