// What the readers of a stored execution outcome take from its JSON (tx_views.ts, receipt_to_tx.ts):
// its receipt ids, each a hash. Nothing in a block message proves them (a chunk's outcome root is in
// the next chunk's header), so a source that sent anything else would have its block stored and then
// every status read through that outcome fail; such a block is refused like any misshapen value.
import { base58Hash } from '@nearlite/primitives';

export function checkOutcomeShape(executionOutcome: unknown, id: string): void {
  const outcome = (executionOutcome as { outcome?: { receipt_ids?: unknown } } | null)?.outcome;
  const ids = outcome?.receipt_ids;
  if (!Array.isArray(ids)) throw new Error(`the outcome of ${id} has no list of receipt_ids`);
  for (const rid of ids) {
    if (base58Hash(rid) === null)
      throw new Error(`the outcome of ${id} names a receipt id that is not a hash: ${JSON.stringify(rid)}`);
  }
}
