// Reads a stopped follower's home directly through @nearlite/follower: node examples/read-follower-home.mjs <home> [account]
// (a home whose config.json keeps the default place of its store, `data`).
import { join } from 'node:path';
import { decodeAccount } from '@nearlite/primitives';
import { HistoryStore, StateNotHeld } from '@nearlite/follower';
import { Store } from '@nearlite/store';
import { trieKeyAccount, trieKeyContractDataPrefix } from '@nearlite/trie';

const [home = 'follower', accountId = 'test.near'] = process.argv.slice(2);
let store;
try {
  store = await Store.open(join(home, 'data'), { readOnly: true });
} catch (err) {
  console.error(`cannot read ${home}: ${err.message}`);
  process.exit(1);
}
/** A read the history cannot answer (it began after the genesis, and the key is older). */
const held = async (read) => {
  try {
    return await read();
  } catch (err) {
    if (err instanceof StateNotHeld) return `not held (the state is held from #${err.stateFrom})`;
    throw err;
  }
};
try {
  const history = new HistoryStore(store);
  const cursor = history.cursor();
  if (!cursor) {
    console.error(`${home} holds no followed block: not a follower's home, or one that has followed nothing yet`);
    process.exitCode = 1;
    process.exit();
  }
  const block = JSON.parse(history.blockAtSync(cursor.height).json);
  console.log(`cursor #${cursor.height} ${block.header.hash}, kept from #${history.firstHeight()}`);
  const balanceAt = (h) =>
    held(async () => {
      const v = await history.valueAt(trieKeyAccount(accountId), h);
      return v ? decodeAccount(v).amount : 'absent';
    });
  console.log(`${accountId} balance ${await balanceAt(cursor.height)} at the cursor, ${await balanceAt(history.firstHeight())} at the first block`);
  const prefix = trieKeyContractDataPrefix(accountId);
  const state = await held(() => history.scanAt(prefix, cursor.height));
  if (typeof state === 'string') console.log(`  contract state ${state}`);
  else
    for (const [key, value] of state) {
      console.log(`  ${Buffer.from(key.subarray(prefix.length)).toString('base64')} = ${Buffer.from(value).toString('base64')}`);
    }
} finally {
  await store.close();
}
