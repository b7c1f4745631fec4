// Receipts in genesis records: nearcore's serde JSON read back exactly as written, each bad field
// refused with its path, and the trie rows nearcore's genesis state applier writes for them.
import { GenesisError, genesisReceiptWrites, receiptFromJson, StateRecordError } from '@nearlite/chain';
import { actionJson, base58Encode, decodeReceipt, encodeReceipt, receiptJson } from '@nearlite/primitives';
import {
  parseTrieKey,
  trieKeyDelayedReceiptIndices,
  trieKeyPendingDataCount,
  trieKeyPostponedReceipt,
  trieKeyPostponedReceiptId,
  trieKeyPromiseYieldReceipt,
  trieKeyReceivedData,
} from '@nearlite/trie';
import t from 'tap';
import { EVERY_ACTION, EVERY_RECEIPT } from '../../../test/helpers/every_action.js';

const hash = (fill: number) => new Uint8Array(32).fill(fill);
const b58 = (fill: number) => base58Encode(hash(fill));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

t.test('every receipt and action reads back from its serde JSON as it was', async (t) => {
  for (const r of EVERY_RECEIPT) {
    const back = receiptFromJson(JSON.parse(JSON.stringify(receiptJson(r))), 'r');
    t.same(
      hex(encodeReceipt(back)),
      hex(encodeReceipt(r)),
      Object.keys((receiptJson(r) as { receipt: object }).receipt)[0],
    );
    t.same(back, decodeReceipt(encodeReceipt(r)));
  }
  t.equal(EVERY_ACTION.length, 21, 'every action kind, gas-key permissions and both delegate nonces');
});

t.test('a bad field is refused with its path', async (t) => {
  const good = JSON.parse(JSON.stringify(receiptJson(EVERY_RECEIPT[0]!))) as {
    receipt: { Action: Record<string, unknown> };
  };
  const bad = (edit: (r: typeof good) => void) => {
    const r = structuredClone(good);
    edit(r);
    return () => receiptFromJson(r, 'records[3].PostponedReceipt');
  };
  t.throws(
    bad((r) => {
      r.receipt.Action.gas_price = 12 ** 40;
    }),
    {
      message: /records\[3\]\.PostponedReceipt\.receipt\.Action\.gas_price/,
    },
  );
  t.throws(
    bad((r) => {
      r.receipt.Action.input_data_ids = ['abc'];
    }),
    {
      message: /input_data_ids\[0\]\.h: expected a hash of 32 bytes/,
    },
  );
  t.throws(
    bad((r) => {
      (r.receipt as Record<string, unknown>).Acton = r.receipt.Action;
      delete (r.receipt as Record<string, unknown>).Action;
    }),
    {
      message: /receipt: expected one of the variants Action, Data/,
    },
  );
  t.throws(
    bad((r) => {
      (r.receipt.Action.actions as unknown[])[0] = 'CreateAccount';
    }),
    {
      message: /actions\[0\]: expected an object/,
    },
  );
  t.throws(
    bad((r) => {
      r.receipt.Action.signer_public_key = 'ed25519:xyz';
    }),
    {
      message: /signer_public_key: invalid public key length/,
    },
  );
  const nested = actionJson(EVERY_ACTION.find((a) => a.type === 'Delegate')!) as {
    Delegate: { delegate_action: { actions: unknown[] } };
  };
  nested.Delegate.delegate_action.actions.push(structuredClone(nested));
  t.throws(
    bad((r) => {
      r.receipt.Action.actions = [nested];
    }),
    {
      message: /delegate_action\.actions\[\d+\]: a delegate action may not hold another/,
    },
  );
  // nearcore's NearGas also reads gas written as a string.
  const call = actionJson(EVERY_ACTION[2]!) as { FunctionCall: { gas: unknown } };
  call.FunctionCall.gas = '30000000000000';
  t.doesNotThrow(
    bad((r) => {
      r.receipt.Action.actions = [call];
    }),
  );
  // A gas key's permission in the flat form of the view (what earlier dumps wrote) still reads.
  const flat = {
    AddKey: {
      public_key: `ed25519:${b58(4)}`,
      access_key: {
        nonce: 0,
        permission: {
          GasKeyFunctionCall: {
            balance: '5',
            num_nonces: 2,
            allowance: null,
            receiver_id: 'app.near',
            method_names: [],
          },
        },
      },
    },
  };
  t.doesNotThrow(
    bad((r) => {
      r.receipt.Action.actions = [flat];
    }),
  );
});

const transfer = (receiver: string, inputs: number[], yielded = false) => ({
  predecessor_id: 'alice.near',
  receiver_id: receiver,
  receipt_id: b58(40 + inputs.length + (yielded ? 10 : 0)),
  receipt: {
    [yielded ? 'PromiseYield' : 'Action']: {
      signer_id: 'alice.near',
      signer_public_key: `ed25519:${b58(9)}`,
      gas_price: '100000000',
      output_data_receivers: [],
      input_data_ids: inputs.map(b58),
      actions: [{ Transfer: { deposit: '1' } }],
    },
  },
});

t.test('nearcore’s genesis rows for received data, postponed, yielded and delayed receipts', async (t) => {
  const postponed = transfer('bob.near', [1, 2]);
  const yielded = transfer('bob.near', [3], true);
  const delayedAction = transfer('bob.near', []);
  const delayedData = {
    predecessor_id: 'alice.near',
    receiver_id: 'bob.near',
    receipt_id: b58(50),
    receipt: { Data: { data_id: b58(2), data: 'aGk=' } },
  };
  const records = [
    { PostponedReceipt: postponed },
    { DelayedReceipt: delayedAction },
    { ReceivedData: { account_id: 'bob.near', data_id: b58(1), data: 'AQ==' } },
    { PostponedReceipt: yielded },
    { DelayedReceipt: delayedData },
    { ReceivedData: { account_id: 'bob.near', data_id: b58(7), data: null } },
  ].map((record, index) => ({ index, record }));
  const out = genesisReceiptWrites(records);
  const rows = new Map(out.writes.map((w) => [hex(w.key), hex(w.value)]));
  const receiptId = hash(42);
  t.equal(rows.get(hex(trieKeyReceivedData('bob.near', hash(1)))), '010100000001', 'Some([1])');
  t.equal(rows.get(hex(trieKeyReceivedData('bob.near', hash(7)))), '00', 'None');
  // Only the input no ReceivedData record delivered is pending.
  t.equal(rows.get(hex(trieKeyPostponedReceiptId('bob.near', hash(2)))), hex(receiptId));
  t.notOk(rows.has(hex(trieKeyPostponedReceiptId('bob.near', hash(1)))));
  t.equal(rows.get(hex(trieKeyPendingDataCount('bob.near', receiptId))), '01000000', 'u32 1');
  t.equal(
    rows.get(hex(trieKeyPostponedReceipt('bob.near', receiptId))),
    hex(encodeReceipt(receiptFromJson(postponed, 'p'))),
  );
  t.equal(
    rows.get(hex(trieKeyPromiseYieldReceipt('bob.near', hash(3)))),
    hex(encodeReceipt(receiptFromJson(yielded, 'y'))),
    'a PromiseYield receipt is a pending yield',
  );
  const delayed = out.writes.filter((w) => parseTrieKey(w.key).col === 'delayed_receipt');
  t.same(
    delayed.map((w) => (parseTrieKey(w.key) as { index: bigint }).index),
    [0n, 1n],
    'queued in file order',
  );
  t.equal(rows.get(hex(trieKeyDelayedReceiptIndices())), `${'00'.repeat(8)}02${'00'.repeat(7)}`);
  // nearcore's receipt_congestion_gas: a transfer's execution fee and a new action receipt's
  // (parameters.yaml: action_transfer 115,123,062,500, action_receipt_creation 108,059,500,000); a
  // data receipt counts none. Its bytes are the receipts' borsh lengths.
  t.equal(out.delayedGas, 115_123_062_500n + 108_059_500_000n);
  t.equal(out.delayedBytes, BigInt(delayed.reduce((n, w) => n + w.value.length, 0)));
});

t.test('genesis receipt records nearcore’s applier refuses', async (t) => {
  const all = transfer('bob.near', [1]);
  t.throws(
    () =>
      genesisReceiptWrites([
        { index: 0, record: { ReceivedData: { account_id: 'bob.near', data_id: b58(1), data: null } } },
        { index: 1, record: { PostponedReceipt: all } },
      ]),
    {
      name: 'GenesisError',
      message: /records\[1\]\.PostponedReceipt: postponed receipt .* has all its input data/,
    },
  );
  t.throws(
    () =>
      genesisReceiptWrites([{ index: 0, record: { PostponedReceipt: transfer('bob.near', [1, 2], true) } }]),
    {
      message: /a PromiseYield receipt waits for exactly one input/,
    },
  );
  const data = { ...all, receipt: { Data: { data_id: b58(1), data: null } } };
  t.throws(() => genesisReceiptWrites([{ index: 4, record: { PostponedReceipt: data } }]), {
    message: /records\[4\]\.PostponedReceipt: expected an action receipt/,
  });
  t.throws(
    () => genesisReceiptWrites([{ index: 2, record: { DelayedReceipt: { ...all, receipt_id: 'x' } } }]),
    GenesisError,
  );
});

// Whatever a genesis file holds, a receipt record either reads or is refused with StateRecordError
// (never a TypeError or a crash): receipts of every variant with fields dropped, retyped, added.
t.test('mangled receipt records are refused with StateRecordError, never another error', async (t) => {
  const odd = [
    null,
    0,
    -1,
    1.5,
    2 ** 70,
    '',
    'x',
    'ed25519:abc',
    [],
    {},
    [1],
    { a: 1 },
    true,
    '1'.repeat(50),
  ];
  let seed = 12345;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const pick = () => odd[Math.floor(rnd() * odd.length)];
  const mangle = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      const a = v.map((x) => (rnd() < 0.3 ? mangle(x) : x));
      if (rnd() < 0.1) a.push(pick());
      if (rnd() < 0.1) a.pop();
      return a;
    }
    if (v && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const r = rnd();
        if (r < 0.05) continue;
        o[k] = r < 0.15 ? pick() : rnd() < 0.5 ? mangle(x) : x;
      }
      return o;
    }
    return rnd() < 0.2 ? pick() : v;
  };
  const others: string[] = [];
  let refused = 0;
  for (let i = 0; i < 3000; i++) {
    const json = mangle(JSON.parse(JSON.stringify(receiptJson(EVERY_RECEIPT[i % EVERY_RECEIPT.length]!))));
    try {
      receiptFromJson(json, 'r');
    } catch (err) {
      if (err instanceof StateRecordError) refused++;
      else others.push(String(err));
    }
  }
  t.same(others, []);
  t.ok(refused > 1000, `${refused} of 3,000 refused`);
});
