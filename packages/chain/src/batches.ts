// Long rewrites (a repair, a flat-state rebuild) committed in bounded batches.
import { type Store, StoreUpdate } from '@nearlite/store';

/** Commits a batch whenever it holds `size` items; `flush` commits what is left. */
export class Batches {
  update = new StoreUpdate();
  private items = 0;
  constructor(
    private readonly store: Store,
    private readonly size: number,
  ) {}

  async added(): Promise<void> {
    if (++this.items < this.size) return;
    await this.flush();
  }

  async flush(): Promise<void> {
    if (this.items === 0) return;
    await this.store.commit(this.update);
    this.update = new StoreUpdate();
    this.items = 0;
  }
}
