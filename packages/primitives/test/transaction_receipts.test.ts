// Receipt codec (V0 and V1), DeterministicStateInit, and the receipt view of a refund as nearcore
// shows it (examples/tx_function_call_with_refund.json).
import {
  type Action,
  BorshError,
  BorshReader,
  BorshWriter,
  decodeReceipt,
  encodeReceipt,
  parsePublicKey,
  type Receipt,
  readAction,
  receiptView,
  writeAction,
} from '@nearlite/primitives';
import t from 'tap';

const alicePk = parsePublicKey('ed25519:9C6hybhQ6Aycep9jaUnP6uL9ZYvDjUp1aSkFWPUFJtpj');

const gasRefund: Receipt = {
  predecessorId: 'system',
  receiverId: 'alice.test.near',
  receiptId: new Uint8Array(32).fill(5),
  receipt: {
    kind: 'Action',
    signerId: 'alice.test.near',
    signerPublicKey: alicePk,
    gasPrice: 0n,
    outputDataReceivers: [],
    inputDataIds: [],
    actions: [{ type: 'Transfer', deposit: 2757195000000000000000n }],
  },
};

t.test('receipts round-trip; V1 carries a priority behind a version byte', async (t) => {
  const v0 = encodeReceipt(gasRefund);
  t.equal(v0[1], 0, 'V0 starts with the predecessor length');
  t.same(decodeReceipt(v0), gasRefund);
  const v1 = encodeReceipt({ ...gasRefund, priority: 7n });
  t.equal(v1[0], 1);
  t.same(decodeReceipt(v1), { ...gasRefund, priority: 7n });
  const data: Receipt = {
    predecessorId: 'a.near',
    receiverId: 'b.near',
    receiptId: new Uint8Array(32).fill(1),
    receipt: { kind: 'Data', dataId: new Uint8Array(32).fill(2), data: null },
  };
  t.same(decodeReceipt(encodeReceipt(data)), data);
  t.throws(() => decodeReceipt(Uint8Array.from([...v0, 0])), BorshError, 'trailing bytes');
  t.throws(() => decodeReceipt(v0.subarray(0, 20)), BorshError, 'truncated');
});

t.test('the receipt view of a gas refund matches nearcore', async (t) => {
  const view = receiptView(gasRefund) as Record<string, unknown>;
  t.same(view.receipt, {
    Action: {
      signer_id: 'alice.test.near',
      signer_public_key: 'ed25519:9C6hybhQ6Aycep9jaUnP6uL9ZYvDjUp1aSkFWPUFJtpj',
      gas_price: '0',
      output_data_receivers: [],
      input_data_ids: [],
      actions: [{ Transfer: { deposit: '2757195000000000000000' } }],
      is_promise_yield: false,
    },
  });
  t.equal(view.predecessor_id, 'system');
});

t.test('DeterministicStateInit (action 11) decodes with its map; unsorted keys are refused', async (t) => {
  const action: Action = {
    type: 'DeterministicStateInit',
    code: { kind: 'AccountId', accountId: 'global.near' },
    data: [
      [Uint8Array.of(1), Uint8Array.of(9)],
      [Uint8Array.of(2), Uint8Array.of()],
    ],
    deposit: 3n,
  };
  const w = new BorshWriter();
  writeAction(w, action);
  const bytes = w.toBytes();
  t.equal(bytes[0], 11);
  t.same(readAction(new BorshReader(bytes)), action);
  const unsorted = new BorshWriter();
  writeAction(unsorted, { ...action, data: [...action.data].reverse() });
  t.throws(() => readAction(new BorshReader(unsorted.toBytes())), BorshError);
});
