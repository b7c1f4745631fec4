// EXPERIMENTAL_receipt_to_tx scans blocks' outcomes only for a receipt its source holds a trace of: a
// receipt id it has never seen is UNKNOWN_RECEIPT at once, where the scan of the last 2,000 blocks
// cost ~250 ms of the RPC thread per request on a busy chain.
import { type ReceiptToTxSource, receiptToTxOver } from '@nearlite/chain';
import t from 'tap';

function source(holds: boolean | undefined) {
  const scanned: number[] = [];
  const s: ReceiptToTxSource = {
    headHeight: () => 1_000,
    tailHeight: () => 0,
    executedAt: () => undefined,
    findCreator: (_id, from) => {
      scanned.push(from);
      return null;
    },
    signerOf: () => undefined,
    ...(holds === undefined ? {} : { holds: () => holds }),
  };
  return { s, scanned };
}

const unknown = { name: 'HandlerError', cause: 'UNKNOWN_RECEIPT' };

t.test('a receipt the source holds no trace of is not looked for', async (t) => {
  const none = source(false);
  await t.rejects(receiptToTxOver(none.s, { receiptId: new Uint8Array(32) }), unknown);
  t.same(none.scanned, [], 'no outcome scanned');
  const held = source(true);
  await t.rejects(receiptToTxOver(held.s, { receiptId: new Uint8Array(32) }), unknown);
  t.not(held.scanned.length, 0, 'one it holds is looked for from the head down');
  t.equal(held.scanned[0], 1_000);
  const unsaid = source(undefined);
  await t.rejects(receiptToTxOver(unsaid.s, { receiptId: new Uint8Array(32) }), unknown);
  t.not(unsaid.scanned.length, 0, 'a source that cannot tell looks as before');
});

t.test("a malformed hint is refused first, as nearcore's checks come first", async (t) => {
  const none = source(false);
  await t.rejects(receiptToTxOver(none.s, { receiptId: new Uint8Array(32), window: 3 }), {
    cause: 'MALFORMED_HINT',
  });
});
