// Unit tests write history rows by hand; a state read is only answered at heights the history has
// followed, which its cursor says.
import { CURSOR_KEY, encodeCursor } from '@nearlite/follower';
import { DBCol, type Store, StoreUpdate } from '@nearlite/store';

export async function followedTo(store: Store, height: number): Promise<void> {
  const cursor = encodeCursor({ height, hash: new Uint8Array(32) });
  await store.commit(new StoreUpdate().put(DBCol.FollowerMisc, CURSOR_KEY, cursor));
}
