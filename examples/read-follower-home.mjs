// Reads a stopped follower's home directly through @nearlite/follower: node examples/read-follower-home.mjs <home> [account]
import { join } from 'node:path';
import { decodeAccount } from '@nearlite/primitives';
import { HistoryStore } from '@nearlite/follower';
import { Store } from '@nearlite/store';
import { trieKeyAccount, trieKeyContractDataPrefix } from '@nearlite/trie';

const [home = 'follower', accountId = 'test.near'] = process.argv.slice(2);
const store = await Store.open(join(home, 'data'), { readOnly: true });
try {
  const history = new HistoryStore(store);
  const cursor = history.cursor();
  const block = JSON.parse(history.blockAtSync(cursor.height).json);
  console.log(`cursor #${cursor.height} ${block.header.hash}, kept from #${history.firstHeight()}`);
  const balanceAt = async (h) => {
    const v = await history.valueAt(trieKeyAccount(accountId), h);
    return v ? decodeAccount(v).amount : 'absent';
  };
  console.log(`${accountId} balance ${await balanceAt(cursor.height)} at the cursor, ${await balanceAt(history.firstHeight())} at the first block`);
  const prefix = trieKeyContractDataPrefix(accountId);
  for (const [key, value] of await history.scanAt(prefix, cursor.height)) {
    console.log(`  ${Buffer.from(key.subarray(prefix.length)).toString('base64')} = ${Buffer.from(value).toString('base64')}`);
  }
} finally {
  await store.close();
}
