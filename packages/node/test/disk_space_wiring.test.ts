// The stores that write a node's data check their disk's free space before writes: the chain thread's
// and a follower's LevelDB history. (The check itself: packages/store/test/disk_space.test.ts.)
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadValidGenesis } from '@nearlite/chain';
import { Store } from '@nearlite/store';
import t from 'tap';
import { fixedLocalnetGenesis } from '../../../test/helpers/localnet_genesis.js';
import { tempDir } from '../../../test/helpers/tmp.js';
import { chainThreadStoreOptions } from '../dist/chain_store_options.js';
import { openLevelHistory } from '../dist/history_open.js';

t.test("the chain thread's store checks the disk, and says so through the thread's log", async (t) => {
  const warn = (_m: string) => {};
  const options = chainThreadStoreOptions(false, warn);
  t.equal(options.diskSpace?.warn, warn);
  const store = await Store.open(tempDir(t), options);
  t.teardown(() => store.close());
  t.equal(store.checksDiskSpace, true);
});

t.test("a follower's LevelDB history checks the disk", async (t) => {
  const home = tempDir(t);
  const path = join(home, 'genesis.json');
  writeFileSync(path, JSON.stringify(fixedLocalnetGenesis('test-chain-disk1')));
  const genesis = loadValidGenesis(path);
  const opened = await openLevelHistory(join(home, 'data'), {
    home,
    archive: true,
    convertDbKind: false,
    compression: false,
    genesis: { config: genesis.config, path },
    warn: () => {},
  });
  t.teardown(() => opened.close());
  t.equal((opened.history as unknown as { store: Store }).store.checksDiskSpace, true);
  const plain = await Store.open(tempDir(t));
  t.teardown(() => plain.close());
  t.equal(plain.checksDiskSpace, false, 'a store opened without it (a tool, a reader) does not');
});
