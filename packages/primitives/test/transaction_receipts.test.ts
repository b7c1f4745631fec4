// Receipt codec (V0 and V1), DeterministicStateInit, and the receipt view of a refund as nearcore
// shows it (examples/tx_function_call_with_refund.json).
import {
  type Action,
  actionJson,
  actionView,
  BorshError,
  BorshReader,
  BorshWriter,
  balanceRefundReceiver,
  base58Encode,
  decodeReceipt,
  decodeStoredReceipt,
  encodeReceipt,
  encodeStateStoredReceipt,
  parsePublicKey,
  type Receipt,
  readAction,
  receiptView,
  sha256,
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

t.test(
  "a StateStoredReceipt is laid out as nearcore's custom borsh of it, and told from a plain receipt",
  async (t) => {
    const plain = encodeReceipt(gasRefund);
    const metadata = { congestionGas: 42n, congestionSize: 43n };
    const stored = encodeStateStoredReceipt(gasRefund, metadata);
    // receipt.rs: two STATE_STORED_RECEIPT_TAG bytes (u8::MAX), the version (new_owned and
    // new_borrowed make V1), the ReceiptV0, then StateStoredReceiptMetadata's two u64s.
    const le = (v: number) => [v, 0, 0, 0, 0, 0, 0, 0];
    t.same([...stored], [255, 255, 1, ...plain, ...le(42), ...le(43)]);
    t.same(decodeStoredReceipt(stored), { receipt: gasRefund, metadata });
    t.same(decodeStoredReceipt(plain), { receipt: gasRefund }, 'a plain receipt has no metadata');
    const v1 = encodeReceipt({ ...gasRefund, priority: 7n });
    t.same(decodeStoredReceipt(v1), { receipt: { ...gasRefund, priority: 7n } }, 'a Receipt V1 is plain too');
    const v0 = Uint8Array.from(stored);
    v0[2] = 0;
    t.same(decodeStoredReceipt(v0), { receipt: gasRefund, metadata }, 'V0 has the same layout');
    const v2 = Uint8Array.from(stored);
    v2[2] = 2;
    t.throws(() => decodeStoredReceipt(v2), BorshError, 'an unknown version');
    t.throws(() => decodeStoredReceipt(stored.subarray(0, stored.length - 1)), BorshError, 'truncated');
    t.throws(() => decodeStoredReceipt(Uint8Array.from([...stored, 0])), BorshError, 'trailing bytes');
  },
);

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

t.test('global contract distribution receipts: V1 and V2 (with nonce) codecs and the view', async (t) => {
  const v2: Receipt = {
    predecessorId: 'alice.near',
    receiverId: 'system',
    receiptId: new Uint8Array(32).fill(3),
    receipt: {
      kind: 'GlobalContractDistribution',
      id: { kind: 'AccountId', accountId: 'alice.near' },
      targetShard: 2n,
      alreadyDeliveredShards: [0n, 1n],
      code: Uint8Array.of(0, 97, 115, 109),
      nonce: 4n,
    },
  };
  const bytes = encodeReceipt(v2);
  // After the ids: ReceiptEnum tag 4, then GlobalContractDistributionReceipt::V2 (tag 1).
  const at = 4 + 10 + 4 + 6 + 32;
  t.same(bytes.subarray(at, at + 2), Uint8Array.of(4, 1));
  t.same(decodeReceipt(bytes), v2);
  const { nonce: _, ...v1Body } = v2.receipt as Extract<
    Receipt['receipt'],
    { kind: 'GlobalContractDistribution' }
  >;
  const v1: Receipt = { ...v2, receipt: v1Body };
  const v1Bytes = encodeReceipt(v1);
  t.equal(v1Bytes[at + 1], 0, 'V1 has no nonce');
  t.equal(v1Bytes.length, bytes.length - 8);
  t.same(decodeReceipt(v1Bytes), v1);
  const bad = bytes.slice();
  bad[at + 1] = 2;
  t.throws(() => decodeReceipt(bad), BorshError, 'unknown distribution version');
  t.same((receiptView(v2) as { receipt: unknown }).receipt, {
    GlobalContractDistribution: {
      id: { account_id: 'alice.near' },
      target_shard: 2n,
      already_delivered_shards: [0n, 1n],
      code: Buffer.from(sha256(Uint8Array.of(0, 97, 115, 109))).toString('base64'),
      nonce: 4n,
    },
  });
});

t.test('global contract action views, and inside a delegate action the serialized Action', async (t) => {
  const code = Uint8Array.of(0, 97, 115, 109);
  const hash = new Uint8Array(32).fill(1);
  const deploy: Action = { type: 'DeployGlobalContract', code, deployMode: 1 };
  const use: Action = { type: 'UseGlobalContract', identifier: { kind: 'CodeHash', hash } };
  t.same(actionView(deploy), {
    DeployGlobalContractByAccountId: { code: Buffer.from(sha256(code)).toString('base64') },
  });
  t.same(actionView(use), { UseGlobalContract: { code_hash: base58Encode(hash) } });
  t.same(actionJson(deploy), { DeployGlobalContract: { code: 'AGFzbQ==', deploy_mode: 'AccountId' } });
  t.same(actionJson(use), {
    UseGlobalContract: { contract_identifier: { hash: base58Encode(hash) } },
  });
});

// nearcore's ReceiptEnum: Action = 0, Data = 1, PromiseYield = 2, PromiseResume = 3; the last two
// keep the ActionReceipt / DataReceipt layouts.
t.test('PromiseYield and PromiseResume receipts: their tags, round trips and views', async (t) => {
  const dataId = new Uint8Array(32).fill(9);
  const yieldReceipt: Receipt = {
    ...gasRefund,
    predecessorId: 'alice.test.near',
    receipt: {
      kind: 'Action',
      signerId: 'alice.test.near',
      signerPublicKey: alicePk,
      gasPrice: 100n,
      outputDataReceivers: [],
      inputDataIds: [dataId],
      actions: [],
      isPromiseYield: true,
    },
  };
  const y = encodeReceipt(yieldReceipt);
  const { isPromiseYield: _, ...action } = yieldReceipt.receipt as Extract<
    Receipt['receipt'],
    { kind: 'Action' }
  >;
  const plain = encodeReceipt({ ...yieldReceipt, receipt: action });
  const tagAt = 4 + 15 + 4 + 15 + 32;
  t.equal(y[tagAt], 2);
  t.equal(plain[tagAt], 0);
  t.same(y.subarray(tagAt + 1), plain.subarray(tagAt + 1), 'the ActionReceipt layout');
  t.same(decodeReceipt(y), yieldReceipt);
  const view = receiptView(yieldReceipt) as { receipt: { Action: { is_promise_yield: boolean } } };
  t.equal(view.receipt.Action.is_promise_yield, true);

  const resume: Receipt = {
    predecessorId: 'alice.test.near',
    receiverId: 'alice.test.near',
    receiptId: new Uint8Array(32).fill(3),
    receipt: { kind: 'Data', dataId, data: Uint8Array.of(1, 2), isPromiseResume: true },
  };
  const r = encodeReceipt(resume);
  t.equal(r[tagAt], 3);
  t.same([...r.subarray(tagAt + 1)], [...dataId, 1, 2, 0, 0, 0, 1, 2], 'data id, Some, u32 length, bytes');
  t.same(decodeReceipt(r), resume);
  t.same((receiptView(resume) as { receipt: unknown }).receipt, {
    Data: { data_id: 'cGfHiC6Kgg3FpFZvgwGcswsCRtp4aBP2fzuXRQPizuN', data: 'AQI=', is_promise_resume: true },
  });
  const timeout = {
    ...resume,
    receipt: { kind: 'Data' as const, dataId, data: null, isPromiseResume: true as const },
  };
  t.same(decodeReceipt(encodeReceipt(timeout)), timeout);
  t.equal(
    (receiptView(gasRefund) as { receipt: { Action: { is_promise_yield: boolean } } }).receipt.Action
      .is_promise_yield,
    false,
  );
});

t.test(
  'ActionReceiptV2: tags 5 and 6, refund_to after the signer; the view shows a set refund_to',
  async (t) => {
    const base = gasRefund.receipt as Extract<Receipt['receipt'], { kind: 'Action' }>;
    const v2: Receipt = { ...gasRefund, receipt: { ...base, refundTo: 'carol.near' } };
    const bytes = encodeReceipt(v2);
    const v0 = encodeReceipt(gasRefund);
    // predecessor "system" (4 + 6), receiver (4 + 15), the id (32): then the enum tag.
    const at = 4 + 6 + 4 + 15 + 32;
    t.equal(v0[at], 0, 'ReceiptEnum::Action');
    t.equal(bytes[at], 5, 'ReceiptEnum::ActionV2');
    const signerEnd = at + 1 + 4 + 'alice.test.near'.length;
    t.same([...bytes.subarray(signerEnd, signerEnd + 5)], [1, 10, 0, 0, 0], 'Some, then the id length');
    t.equal(bytes.length, v0.length + 1 + 4 + 'carol.near'.length);
    t.same(decodeReceipt(bytes), v2);
    const none: Receipt = { ...gasRefund, receipt: { ...base, refundTo: null } };
    t.equal(encodeReceipt(none)[at], 5);
    t.same(decodeReceipt(encodeReceipt(none)), none, 'a V2 without refund_to stays V2');
    const yieldV2: Receipt = {
      ...gasRefund,
      receipt: { ...base, isPromiseYield: true, refundTo: 'carol.near' },
    };
    t.equal(encodeReceipt(yieldV2)[at], 6, 'ReceiptEnum::PromiseYieldV2');
    t.same(decodeReceipt(encodeReceipt(yieldV2)), yieldV2);
    const view = receiptView(v2) as { receipt: { Action: Record<string, unknown> } };
    t.equal(view.receipt.Action.refund_to, 'carol.near');
    t.same(Object.keys(view.receipt.Action).slice(-2), ['is_promise_yield', 'refund_to']);
    t.notOk('refund_to' in (receiptView(none) as { receipt: { Action: object } }).receipt.Action);
    t.equal(balanceRefundReceiver(v2), 'carol.near');
    t.equal(balanceRefundReceiver(none), 'system', 'else the predecessor');
  },
);
