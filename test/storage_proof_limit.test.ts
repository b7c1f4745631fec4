// nearcore records every chunk's storage proof as it applies it, and a function call may add at most
// per_receipt_storage_proof_size_limit (4,000,000 bytes) to it: a contract that passes it fails with
// RecordedStorageExceeded, as it would on mainnet. Each removal a contract makes counts 2,000 bytes
// towards that bound (nearcore#10890); a value read, overwritten or removed counts its length; a
// key only tested with storage_has_key does not. View calls record nothing. Since protocol 86
// (EnforcePerReceiptStorageProofLimit) the bound is the receipt's: its calls together may add at most
// that much, counted from when the receipt began (nearcore's test_per_receipt_storage_proof_size_limit).
import { type Account, actions } from 'near-api-js';
import t from 'tap';
import { compileContract } from './helpers/asc.js';
import { deployedAccount, type LocalChain, localChain } from './helpers/chain.js';

const NEAR = 10n ** 24n;
const TGAS = 10n ** 12n;
const CONTRACT = 'bulk.test.near';
const EXCEEDED = {
  ActionError: {
    index: 0,
    kind: {
      FunctionCallError: {
        ExecutionError: 'Size of the recorded trie storage proof has exceeded the allowed limit (4.0 MB)',
      },
    },
  },
};

interface Outcome {
  status: { SuccessValue?: string; Failure?: unknown };
  receipts_outcome: { outcome: { status: unknown; gas_burnt: number } }[];
}

function u32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
}

/** One transaction of function calls to the contract, each with an equal share of 300 Tgas. */
async function callAll(
  c: LocalChain,
  signer: Account,
  calls: readonly (readonly [method: string, args: Uint8Array])[],
): Promise<Outcome> {
  const gas = (300n * TGAS) / BigInt(calls.length);
  const signed = await signer.createSignedTransaction({
    receiverId: CONTRACT,
    actions: calls.map(([method, args]) => actions.functionCall(method, args, gas, 0n)),
  });
  const r = await c.node.rpc<Outcome>('send_tx', {
    signed_tx_base64: Buffer.from(signed.encode()).toString('base64'),
    wait_until: 'EXECUTED_OPTIMISTIC',
  });
  if (!r.body.result) throw new Error(`send_tx ${calls[0]?.[0]}: ${JSON.stringify(r.body.error)}`);
  return r.body.result;
}

const call = (c: LocalChain, signer: Account, method: string, args: Uint8Array) =>
  callAll(c, signer, [[method, args]]);

const returned = (o: Outcome) => Buffer.from(o.status.SuccessValue ?? '', 'base64').toString();

t.test('a function call fails once its storage proof passes 4 MB, as nearcore fails it', async (t) => {
  const c = await localChain(t);
  const bulk = await deployedAccount(c, CONTRACT, await compileContract('bulk_storage'), 50n * NEAR);

  // 1,990 removals: 3,980,000 bytes of upper bound and the path to one key, under the limit.
  const under = await call(c, bulk, 'remove_n', u32(1990));
  t.same(under.status, { SuccessValue: '' }, '1,990 removals in one call succeed');
  // 2,001 removals: 4,002,000 bytes, over it, whatever the key's path adds.
  const over = await call(c, bulk, 'remove_n', u32(2001));
  t.same(over.status, { Failure: EXCEEDED }, '2,001 removals in one call fail with RecordedStorageExceeded');
  t.ok(over.receipts_outcome[0]!.outcome.gas_burnt > 0, 'the failed call burnt its gas');

  // A value longer than the limit (max_length_storage_value is 4 MiB) can be written: a new key's
  // write records only the path to it.
  const written = await call(c, bulk, 'write_big', u32(4_194_304));
  t.same(written.status, { SuccessValue: '' }, 'a 4 MiB value is written');
  const has = await call(c, bulk, 'has_big', new Uint8Array(0));
  t.equal(returned(has), '1', 'storage_has_key does not read the value: it succeeds');
  for (const method of ['read_big', 'remove_big']) {
    const o = await call(c, bulk, method, new Uint8Array(0));
    t.same(
      o.status,
      { Failure: EXCEEDED },
      `${method}: the value's 4,194,304 bytes are recorded, and fail it`,
    );
  }
  const overwrite = await call(c, bulk, 'write_big', u32(10));
  t.same(overwrite.status, { Failure: EXCEEDED }, 'overwriting it reads the evicted value: it fails too');

  // Nothing was removed or overwritten, and a view call reads it: views record nothing.
  const view = await c.node.rpc<{ result: number[] }>('query', {
    request_type: 'call_function',
    account_id: CONTRACT,
    method_name: 'read_big',
    args_base64: '',
    finality: 'optimistic',
  });
  t.equal(
    Buffer.from(view.body.result?.result ?? []).toString(),
    '4194304',
    'a view call reads the whole value',
  );
});

t.test("a receipt's function calls share one 4 MB bound, as nearcore 86 bounds them", async (t) => {
  const c = await localChain(t);
  const bulk = await deployedAccount(c, CONTRACT, await compileContract('bulk_storage'), 100n * NEAR);

  // Five values of 1,100,000 bytes, each of its own bytes, so that reading one never records another.
  const SIZE = 1_100_000;
  for (let key = 0; key < 5; key++) {
    const written = await call(c, bulk, 'write_at', Uint8Array.of(key, ...u32(SIZE)));
    t.same(written.status, { SuccessValue: '' }, `value ${key} is written`);
  }
  const reads = (n: number) =>
    Array.from({ length: n }, (_, key) => ['read_at', Uint8Array.of(key)] as const);

  const one = await callAll(c, bulk, reads(1));
  t.equal(returned(one), String(SIZE), 'one call reading 1.1 MB succeeds');
  const three = await callAll(c, bulk, reads(3));
  t.equal(returned(three), String(SIZE), 'three calls in one receipt, 3.3 MB together, succeed');

  // Each of the five calls stays under 4 MB on its own; before protocol 86 the receipt succeeded.
  const five = await callAll(c, bulk, reads(5));
  t.same(
    five.status,
    { Failure: { ActionError: { ...EXCEEDED.ActionError, index: 3 } } },
    'the fourth call takes the receipt past 4 MB and fails with RecordedStorageExceeded',
  );
  t.ok(five.receipts_outcome[0]!.outcome.gas_burnt > 0, 'the failed receipt burnt its gas');
});
