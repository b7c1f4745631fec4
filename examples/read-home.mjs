// Reads a stopped node's home directly through @nearlite/chain: node examples/read-home.mjs <home>
import { ChainReader } from '@nearlite/chain';
import { base58Encode } from '@nearlite/primitives';

const reader = await ChainReader.open(process.argv[2] ?? '.nearlite');
try {
  const head = reader.head();
  console.log(`head #${head.height} ${base58Encode(head.hash)}, kept from #${reader.tail()}`);
  const block = reader.blockByHeight(head.height);
  console.log(`timestamp ${block.lite.timestamp}, gas price ${block.rest.nextGasPrice}`);
  const account = reader.account('test.near');
  console.log(`test.near balance ${account.amount} at head, ${reader.account('test.near', reader.tail())?.amount} at the tail`);
  for (const [key, value] of reader.contractState('test.near')) {
    console.log(`  ${Buffer.from(key).toString()} = ${Buffer.from(value).toString()}`);
  }
} finally {
  await reader.close();
}
