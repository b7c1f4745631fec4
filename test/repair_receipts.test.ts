// A rollback keeps the Receipts rows of what the new head still owes the chain and drops those of
// what only the dropped blocks made: nearcore's `EXPERIMENTAL_receipt` finds a receipt from the block
// that made it until GC takes the block that ran it, and a rolled-back chain runs again what its head
// sent, postponed, delayed or yielded.
import { decodeChunk, decodeIdList, repairChain } from '@nearlite/chain';
import { decodeReceipt, toHex } from '@nearlite/primitives';
import { blockShardKey, DBCol, Store, StoreUpdate, u64be } from '@nearlite/store';
import t from 'tap';
import { compileContract } from './helpers/asc.js';
import { openProtocol86Chain, poolTransaction, protocol86Localnet } from './helpers/protocol86_chain.js';

const TGAS = 10n ** 12n;
const hasRow = (store: Store, id: string) => store.get(DBCol.Receipts, Buffer.from(id, 'hex')) !== undefined;
const ran = (store: Store, id: string) => store.get(DBCol.ReceiptBlock, Buffer.from(id, 'hex')) !== undefined;

/** A lost height index row above `height`: repair rolls the chain back to it. */
async function rollBackTo(store: Store, height: number) {
  await store.commit(new StoreUpdate().delete(DBCol.BlockHeight, u64be(height + 1)));
  return repairChain(store, [0], 0);
}

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
  // The block that ran the transfer sent its refund, which the block after it ran.
  const runner = store.get(DBCol.ReceiptBlock, Buffer.from(sent[0]!, 'hex'))!;
  const refunds = decodeIdList(store.get(DBCol.OutgoingReceiptIds, blockShardKey(runner, 0))!).map(toHex);
  // The last block sends a transfer nothing runs before the rollback.
  poolTransaction(chain, signer, 'test.near', 'bob.test.near', 2n, [{ type: 'Transfer', deposit: 1n }]);
  const top = await chain.produceBlock();
  const unrun = decodeIdList(store.get(DBCol.OutgoingReceiptIds, blockShardKey(top.hash, 0))!).map(toHex);
  t.equal(unrun.length, 1, 'the last block sent one receipt');
  t.ok(hasRow(store, unrun[0]!), 'stored as it was sent');
  for (const id of [...sent, ...refunds])
    t.ok(ran(store, id) && hasRow(store, id), 'ran before the rollback');

  const repaired = await rollBackTo(store, sender.lite.height);
  t.equal(repaired.head?.height, sender.lite.height, 'rolled back to the block that sent it');
  for (const id of sent) {
    t.notOk(ran(store, id), 'the block that ran it is gone');
    t.ok(hasRow(store, id), 'the receipt its head sent keeps its row');
  }
  for (const id of [...refunds, ...unrun])
    t.notOk(hasRow(store, id), 'a receipt only a dropped block made has none');

  chain = await openProtocol86Chain(raw, signer, store);
  const next = await chain.produceBlock();
  const chunkHash = store.get(DBCol.ChunkHashesByBlock, blockShardKey(next.hash, 0))!;
  const chunk = decodeChunk(store.get(DBCol.Chunks, chunkHash)!);
  t.equal(chunk.prevOutgoingReceipts.length, sent.length, 'the next chunk carries what the sender sent');
  const outcomes = decodeIdList(store.get(DBCol.OutcomeIds, blockShardKey(next.hash, 0))!).map(toHex);
  t.ok(outcomes.includes(sent[0]!), 'the receiving shard runs it again');
  t.ok(hasRow(store, sent[0]!), 'and its row is there for EXPERIMENTAL_receipt');
});

t.test('rolled back past the block that resumed a yield, the yielded receipt keeps its row', async (t) => {
  const { raw, signer } = protocol86Localnet();
  const store = await Store.memory();
  let chain = await openProtocol86Chain(raw, signer, store, { vm: true });
  await chain.produceBlock();
  const code = await compileContract('oracle');
  poolTransaction(chain, signer, 'test.near', 'test.near', 1n, [{ type: 'DeployContract', code }]);
  await chain.produceBlock();
  const call = (nonce: bigint, methodName: string, args: Uint8Array) =>
    poolTransaction(chain, signer, 'test.near', 'test.near', nonce, [
      { type: 'FunctionCall', methodName, args, gas: 100n * TGAS, deposit: 0n },
    ]);
  call(2n, 'request', new Uint8Array(0));
  for (let i = 0; i < 3; i++) await chain.produceBlock();
  const yielded: string[] = [];
  for await (const [id, bytes] of store.iter(DBCol.Receipts)) {
    const r = decodeReceipt(bytes).receipt;
    if (r.kind === 'Action' && r.isPromiseYield) yielded.push(toHex(id));
  }
  t.equal(yielded.length, 1, 'the request yielded one receipt');
  const id = yielded[0]!;
  t.notOk(ran(store, id), 'which waits in the state');
  const waiting = chain.head();

  call(3n, 'answer', new TextEncoder().encode('"42"'));
  for (let i = 0; i < 3; i++) await chain.produceBlock();
  t.ok(ran(store, id), 'an answer resumed it');

  const repaired = await rollBackTo(store, waiting.height);
  t.equal(repaired.head?.height, waiting.height, 'rolled back to before the answer');
  t.notOk(ran(store, id), 'the block that ran it is gone');
  t.ok(hasRow(store, id), 'the yielded receipt, back in waiting, has its row');

  chain = await openProtocol86Chain(raw, signer, store, { vm: true });
  call(4n, 'answer', new TextEncoder().encode('"7"'));
  for (let i = 0; i < 3; i++) await chain.produceBlock();
  t.ok(ran(store, id) && hasRow(store, id), 'a new answer runs it, its row in place');
});
