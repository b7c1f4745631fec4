// The gas-key host functions (gas_key_host_fns, on since protocol 85): each appends its action and
// pays nearcore's gas-key fees (core/parameters/src/cost.rs: gas_key_transfer_send_fee / _exec_fee,
// gas_key_add_key_send_fee / _exec_fee), priced by the key's borsh length and the receiver's id.
// The fee parameters are nearcore's parameters.yaml values at 85 and 86.
import t from 'tap';
import { call, contract, fees, freshHash, MockExternal } from './helpers.js';

const TRANSFER_BASE = { send: 115_123_062_500n, exec: 235_676_644_250n };
const BYTE = { send: 59_357_464n, exec: 101_435_400n };
const NONCE_WRITE_EXEC = 64_196_736_000n;
// access_key_key_len of "bob.near" and an ed25519 key: the column, the id, the separator, 33 bytes.
const AKL = 1n + 8n + 1n + 33n;

// 100 "bob.near", 300 u128 10, 320 u128 zero, 400 an ed25519 key (33 bytes), 500 "m1,m2".
const code = await contract(`
  (data (i32.const 100) "bob.near")
  (data (i32.const 300) "\\0a")
  (data (i32.const 400) "\\00\\01\\02\\03\\04\\05\\06\\07\\08\\09\\0a\\0b\\0c\\0d\\0e\\0f\\10\\11\\12\\13\\14\\15\\16\\17\\18\\19\\1a\\1b\\1c\\1d\\1e\\1f\\20")
  (data (i32.const 500) "m1,m2")
  (func (export "fund")
    (call $promise_batch_action_transfer_to_gas_key
      (call $promise_batch_create (i64.const 8) (i64.const 100)) (i64.const 33) (i64.const 400) (i64.const 300)))
  (func (export "full")
    (call $promise_batch_action_add_gas_key_with_full_access
      (call $promise_batch_create (i64.const 8) (i64.const 100)) (i64.const 33) (i64.const 400) (i64.const 4)))
  (func (export "calls")
    (call $promise_batch_action_add_gas_key_with_function_call
      (call $promise_batch_create (i64.const 8) (i64.const 100)) (i64.const 33) (i64.const 400) (i64.const 2)
      (i64.const 320) (i64.const 8) (i64.const 100) (i64.const 5) (i64.const 500)))
  (func (export "too_many")
    (call $promise_batch_action_add_gas_key_with_full_access
      (call $promise_batch_create (i64.const 8) (i64.const 100)) (i64.const 33) (i64.const 400) (i64.const 65536)))
  (func (export "bad_key")
    (call $promise_batch_action_transfer_to_gas_key
      (call $promise_batch_create (i64.const 8) (i64.const 100)) (i64.const 5) (i64.const 400) (i64.const 300)))
`);
const hash = freshHash();
const pk = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1)).toString('hex');
const receiptExec = fees.fees.new_action_receipt.execution;

t.test(
  'transfer_to_gas_key: the amount leaves the balance, the fees are gas_key_transfer and gas_key_byte',
  async (t) => {
    const ext = new MockExternal();
    const out = call({ code, codeHash: hash, method: 'fund', external: ext });
    t.equal(out.aborted, null);
    t.same(ext.receipts[0]!.actions, [{ TransferToGasKey: { public_key: pk, deposit: 10n } }]);
    t.equal(out.balance, 1_000_005n - 10n);
    t.equal(out.profile.getActionCost('gas_key_transfer_base'), TRANSFER_BASE.send);
    t.equal(out.profile.getActionCost('gas_key_byte'), BYTE.send * 33n);
    t.equal(
      out.used_gas - out.burnt_gas,
      receiptExec + TRANSFER_BASE.exec + BYTE.exec * (AKL + 27n),
      'reserved for the receipt: its exec fees',
    );
  },
);

t.test('add_gas_key_with_full_access: the key fee, then each nonce row written', async (t) => {
  const ext = new MockExternal();
  const out = call({ code, codeHash: hash, method: 'full', external: ext });
  t.equal(out.aborted, null);
  t.same(ext.receipts[0]!.actions, [{ AddGasKey: { public_key: pk, num_nonces: 4 } }]);
  t.equal(out.profile.getActionCost('gas_key_nonce_write_base'), 0n, 'nothing burnt for the rows');
  t.equal(out.profile.getActionCost('gas_key_byte'), BYTE.send * 18n, 'the GasKeyInfo’s 18 bytes');
  t.equal(
    out.used_gas - out.burnt_gas,
    receiptExec +
      fees.fees.add_full_access_key.execution +
      4n * NONCE_WRITE_EXEC +
      4n * BYTE.exec * (AKL + 2n + 8n),
  );
});

t.test('add_gas_key_with_function_call: the function-call key fees and the gas-key ones', async (t) => {
  const ext = new MockExternal();
  const out = call({ code, codeHash: hash, method: 'calls', external: ext });
  t.equal(out.aborted, null);
  t.same(ext.receipts[0]!.actions, [
    {
      AddGasKey: {
        public_key: pk,
        num_nonces: 2,
        allowance: null,
        receiver_id: 'bob.near',
        method_names: ['m1', 'm2'],
      },
    },
  ]);
  const f = fees.fees;
  t.equal(
    out.used_gas - out.burnt_gas,
    receiptExec +
      f.add_function_call_key_base.execution +
      f.add_function_call_key_byte.execution * 6n +
      2n * NONCE_WRITE_EXEC +
      2n * BYTE.exec * (AKL + 2n + 8n),
  );
});

t.test('more nonces than a u16 holds, and a key that does not decode, abort', async (t) => {
  t.same(call({ code, codeHash: hash, method: 'too_many' }).aborted, { HostError: 'IntegerOverflow' });
  t.same(call({ code, codeHash: hash, method: 'bad_key' }).aborted, { HostError: 'InvalidPublicKey' });
});
