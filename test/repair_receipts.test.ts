// A rollback to a block whose chunk sent receipts: the dropped block after it ran them and took their
// Receipts rows with it, yet the next block's chunk carries them (as prev_outgoing_receipts) and the
// receiving shard runs them again.
import { decodeChunk, decodeIdList, repairChain } from '@nearlite/chain';
import { toHex } from '@nearlite/primitives';
import { blockShardKey, DBCol, Store, StoreUpdate, u64be } from '@nearlite/store';
import t from 'tap';
import { openProtocol86Chain, poolTransaction, protocol86Localnet } from './helpers/protocol86_chain.js';

t.test('rolled back to the block that sent a receipt, the chain carries it on', async (t) => {
  const { raw, signer } = protocol86Localnet();
  const store = await Store.memory();
  let chain = await openProtocol86Chain(raw, signer, store);
  await chain.produceBlock();
  poolTransaction(chain, signer, 'test.near', 'bob.test.near', 1n, [{ type: 'Transfer', deposit: 1n }]);
  const sender = await chain.produceBlock();
  const sentIds = store.get(DBCol.OutgoingReceiptIds, blockShardKey(sender.hash, 0));
  t.ok(sentIds, `block #${sender.lite.height} sent a receipt`);
  const sent = decodeIdList(sentIds!).map(toHex);
  for (let i = 0; i < 3; i++) await chain.produceBlock();
  // A lost height index row above it: repair rolls the chain back to the sender.
  await store.commit(new StoreUpdate().delete(DBCol.BlockHeight, u64be(sender.lite.height + 1)));
  const repaired = await repairChain(store, [0], 0);
  t.equal(repaired.head?.height, sender.lite.height, 'rolled back to the block that sent it');
  for (const id of sent) t.notOk(store.get(DBCol.Receipts, Buffer.from(id, 'hex')), 'its Receipts row went');

  chain = await openProtocol86Chain(raw, signer, store);
  const next = await chain.produceBlock();
  const chunkHash = store.get(DBCol.ChunkHashesByBlock, blockShardKey(next.hash, 0))!;
  const chunk = decodeChunk(store.get(DBCol.Chunks, chunkHash)!);
  t.equal(chunk.prevOutgoingReceipts.length, sent.length, 'the next chunk carries what the sender sent');
  const ran = store.get(DBCol.OutcomeIds, blockShardKey(next.hash, 0));
  t.ok(ran && decodeIdList(ran).map(toHex).includes(sent[0]!), 'and the receiving shard runs it again');
});
