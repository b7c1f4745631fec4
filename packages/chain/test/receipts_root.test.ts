// A chunk header's outgoing_receipts_root against real chunks of mainnet and testnet (NEAR Lake):
// the receipts a chunk lists are the ones its shard's previous chunk sent, and the header's root is
// nearcore's over them, grouped by the shard each goes to.
import { readFileSync } from 'node:fs';
import { outgoingReceiptsRoot } from '@nearlite/chain';
import { base58Encode } from '@nearlite/primitives';
import t from 'tap';
import { receiptBytesFromView } from '../../../test/helpers/receipt_view.js';

interface Network {
  readonly block: string;
  readonly shard_ids: number[];
  readonly boundary_accounts?: string[];
  readonly chunks: {
    shard_id: number;
    outgoing_receipts_root: string;
    receipts: { receiver_id: string }[];
  }[];
}
const { networks } = JSON.parse(
  readFileSync(new URL('./fixtures/real_outgoing_receipts_roots.json', import.meta.url), 'utf8'),
) as { networks: Network[] };

/** ShardLayoutV1's account → shard: how many boundary accounts sort at or below it. */
const shardOf = (boundaries: readonly string[], account: string) =>
  boundaries.filter((b) => Buffer.compare(Buffer.from(account), Buffer.from(b)) >= 0).length;

t.test('outgoing_receipts_root of real chunks, with and without receipts', async (t) => {
  let withReceipts = 0;
  for (const n of networks) {
    for (const c of n.chunks) {
      const sent = c.receipts.map((r, i) => ({
        shardId: shardOf(n.boundary_accounts ?? [], r.receiver_id),
        bytes: receiptBytesFromView(r, `receipts[${i}]`),
      }));
      if (sent.length > 0) withReceipts++;
      t.equal(
        base58Encode(outgoingReceiptsRoot(n.shard_ids, sent)),
        c.outgoing_receipts_root,
        `${n.block} shard ${c.shard_id}: ${sent.length} receipts`,
      );
    }
  }
  t.ok(withReceipts >= 3, 'chunks that sent receipts to several shards are among them');
});

t.test('a chunk that sent nothing has the empty lists’ root, never zeros', async (t) => {
  const root = outgoingReceiptsRoot([0, 1, 2, 3], []);
  t.equal(base58Encode(root), '8s41rye686T2ronWmFE38ji19vgeb6uPxjYMPt8y8pSV', 'mainnet 107503704 shard 1');
});
