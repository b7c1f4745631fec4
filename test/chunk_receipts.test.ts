// What a chunk carries as `receipts`: nearcore's prev_outgoing_receipts, the receipts its shard's
// previous chunk sent, to whatever shard; its header's outgoing_receipts_root is over them, grouped
// by the shard each goes to. The receiving shard's chunk does not list them.
import { ChainReader, decodeIdList, outgoingReceiptsRoot, shardLayoutFromView } from '@nearlite/chain';
import { base58Encode } from '@nearlite/primitives';
import { blockShardKey, DBCol } from '@nearlite/store';
import { baseDecode, KeyPair } from 'near-api-js';
import t from 'tap';
import { localChain } from './helpers/chain.js';
import { receiptBytesFromView } from './helpers/receipt_view.js';

interface ChunkView {
  header: { shard_id: number; outgoing_receipts_root: string; height_included: number };
  transactions: { hash: string }[];
  receipts: { receipt_id: string; receiver_id: string; receipt: Record<string, unknown> }[];
}

t.test(
  'a cross-shard receipt is listed by the chunk after the one that sent it, on its own shard',
  async (t) => {
    const { home, node, root } = await localChain(t, { shards: 4, archive: true });
    const config = await node.rpc<{ shard_layout: unknown }>('EXPERIMENTAL_protocol_config', {
      finality: 'final',
    });
    const layout = shardLayoutFromView(config.body.result!.shard_layout);
    // A receiver on another shard than test.near's.
    const from = layout.accountIdToShardId('test.near');
    const receiver = ['a.test.near', 'm.test.near', 'zz.test.near', 'aa', 'zzzz']
      .map((p) => (p.endsWith('.near') ? p : `${p}.test.near`))
      .find((a) => layout.accountIdToShardId(a) !== from)!;
    t.ok(receiver, `a receiver off shard ${from}`);
    const to = layout.accountIdToShardId(receiver);
    const outcome = await root.createAccount({
      newAccountId: receiver,
      publicKey: KeyPair.fromRandom('ed25519').getPublicKey(),
      nearToTransfer: 10n ** 24n,
    });
    const receiptId = outcome.transaction_outcome.outcome.receipt_ids[0]!;
    const included = await node.rpc<{ header: { height: number } }>('block', {
      block_id: outcome.transaction_outcome.block_hash,
    });
    const next = included.body.result!.header.height + 1;
    const chunkAt = async (shardId: number) =>
      (await node.rpc<ChunkView>('chunk', { block_id: next, shard_id: shardId })).body.result!;
    const sender = await chunkAt(from);
    t.same(
      sender.receipts.map((r) => r.receipt_id),
      [receiptId],
      `shard ${from}'s chunk at #${next} lists the receipt its previous chunk sent`,
    );
    t.same((await chunkAt(to)).receipts, [], `the receiving shard ${to}'s chunk does not`);
    // nearcore's root over what the chunk lists, routed by receiver (receipts_root.test.ts checks the
    // function against real mainnet chunks).
    const sent = sender.receipts.map((r) => ({
      shardId: layout.accountIdToShardId(r.receiver_id),
      bytes: receiptBytesFromView(r),
    }));
    t.equal(sender.header.outgoing_receipts_root, base58Encode(outgoingReceiptsRoot(layout.shardIds, sent)));
    const empty = base58Encode(outgoingReceiptsRoot(layout.shardIds, []));
    for (const shardId of layout.shardIds.filter((s) => s !== from)) {
      t.equal((await chunkAt(shardId)).header.outgoing_receipts_root, empty, `shard ${shardId} sent nothing`);
    }
    // The receipt ran on its own shard at that height, as nearcore runs it.
    const status = await node.rpc<{ receipts_outcome: { id: string; block_hash: string }[] }>(
      'EXPERIMENTAL_tx_status',
      {
        tx_hash: outcome.transaction.hash,
        sender_account_id: 'test.near',
        wait_until: 'FINAL',
      },
    );
    const ran = status.body.result!.receipts_outcome.find((o) => o.id === receiptId)!;
    const ranAt = await node.rpc<{ header: { height: number } }>('block', { block_id: ran.block_hash });
    t.equal(ranAt.body.result!.header.height, next, 'run in the block whose chunk lists it');

    // What a node opened afresh reads for the next chunk (the running one keeps the last block's
    // receipts at hand): the sending shard's ids, in order, under the block that made them.
    await node.stop();
    const reader = await ChainReader.open(home);
    t.teardown(() => reader.close());
    const ids = reader.store.get(
      DBCol.OutgoingReceiptIds,
      blockShardKey(baseDecode(outcome.transaction_outcome.block_hash), from),
    );
    t.same(ids && decodeIdList(ids).map(base58Encode), [receiptId], 'stored by the sending shard');
  },
);
