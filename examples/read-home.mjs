// Reads a stopped node's home directly through @nearlite/chain: node examples/read-home.mjs <home>
// (a home whose config.json keeps the default places: `data` and `genesis.json`).
import { ChainReader } from '@nearlite/chain';
import { base58Encode } from '@nearlite/primitives';

const home = process.argv[2] ?? '.nearlite';
let reader;
try {
  reader = await ChainReader.open(home);
} catch (err) {
  console.error(`cannot read ${home}: ${err.message}`);
  process.exit(1);
}
try {
  const head = reader.head();
  console.log(`head #${head.height} ${base58Encode(head.hash)}, kept from #${reader.tail()}`);
  const block = reader.blockByHeight(head.height);
  console.log(`timestamp ${block.lite.timestamp}, gas price ${block.rest.nextGasPrice}`);
  const account = reader.account('test.near');
  console.log(`test.near balance ${account?.amount ?? 'absent'} at head, ${reader.account('test.near', reader.tail())?.amount ?? 'absent'} at the tail`);
  for (const [key, value] of reader.contractState('test.near')) {
    console.log(`  ${Buffer.from(key).toString()} = ${Buffer.from(value).toString()}`);
  }
} finally {
  await reader.close();
}
