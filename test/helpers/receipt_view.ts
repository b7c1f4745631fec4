// A ReceiptView (as `chunk` answers and NEAR Lake carry it) back to its borsh, through the serde form
// of nearcore's Receipt that receiptFromJson reads: ActionView::CreateAccount is a bare string there,
// Action::CreateAccount an empty object.
import { receiptFromJson } from '@nearlite/chain';
import { encodeReceipt } from '@nearlite/primitives';

export function receiptBytesFromView(view: unknown, path = 'receipt'): Uint8Array {
  const record = JSON.parse(JSON.stringify(view), (_k, v) =>
    Array.isArray(v) ? v.map((a) => (a === 'CreateAccount' ? { CreateAccount: {} } : a)) : v,
  );
  return encodeReceipt(receiptFromJson(record, path));
}
