import t from 'tap';
import { MIB, tableBytesOfZeros } from '../../../test/helpers/table_bytes.js';
import { CHAIN_DB_OPTIONS, CHAIN_STORE_OPTIONS, RPC_STORE_OPTIONS } from '../dist/chain_store_options.js';

t.test("a chain's database is written without snappy, by the node and by its chain thread", async (t) => {
  t.ok((await tableBytesOfZeros(t, CHAIN_DB_OPTIONS)) >= MIB, 'repair');
  t.ok((await tableBytesOfZeros(t, RPC_STORE_OPTIONS)) >= MIB, 'the node');
  t.ok((await tableBytesOfZeros(t, CHAIN_STORE_OPTIONS)) >= MIB, 'the chain thread');
  // What a follower's `store.compression` asks for: the same rows take a fraction of the space.
  t.ok((await tableBytesOfZeros(t, { compression: true })) < MIB / 4, 'compression: true');
});
