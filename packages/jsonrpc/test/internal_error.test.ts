// INTERNAL_ERROR as each method's nearcore error enum writes it: the cause names the bare message,
// and the legacy `data` is what the enum's From<…> for RpcError puts there
// (chain/jsonrpc-primitives/src/types/*.rs): its InternalError Display text, whose prefix is the
// enum's, or the enum serialized.
import { HandlerError } from '@nearlite/primitives';
import t from 'tap';
import { dispatch } from '../src/dispatch.js';
import { fakeBackend } from './fixtures/fake_backend.js';

const LIMITS = 'The node reached its limits. Try again later. More details: ';
const HASH = '9wLp7j3fBKiBypiDEiYzxmqPch2UpanRRHrbouM1BMq2';
const TX = 'AAAA';
/** The serialized enum some methods write as `data`. */
const SERIALIZED = { name: 'INTERNAL_ERROR', info: { error_message: 'disk on fire' } };

/** A backend every call of which fails with `err`. */
function failing(err: () => unknown) {
  const fake = fakeBackend();
  return new Proxy(fake, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver);
      if (key === 'headHeight' || typeof v !== 'function') return v;
      return () => {
        throw err();
      };
    },
  });
}

async function call(backend: ReturnType<typeof failing>, method: string, params: unknown) {
  const r = await dispatch({ jsonrpc: '2.0', id: 1, method, params }, backend);
  return { status: r.status, error: JSON.parse(r.body).error };
}

function expected(errorMessage: string, data: unknown) {
  return {
    name: 'INTERNAL_ERROR',
    cause: { name: 'INTERNAL_ERROR', info: { error_message: errorMessage } },
    code: -32000,
    message: 'Server error',
    data,
  };
}

t.test('each enum words its own data', async (t) => {
  const backend = failing(() => HandlerError.internal('disk on fire'));
  const cases: [string, unknown, unknown][] = [
    // RpcBlockError, RpcChunkError, RpcQueryError, RpcValidatorError: the "limits" Display.
    ['block', { finality: 'final' }, `${LIMITS}disk on fire`],
    ['chunk', { chunk_id: HASH }, `${LIMITS}disk on fire`],
    [
      'query',
      { request_type: 'view_account', finality: 'final', account_id: 'a.near' },
      `${LIMITS}disk on fire`,
    ],
    ['validators', [null], `${LIMITS}disk on fire`],
    // RpcGasPriceError and RpcLightClientProofError: "Internal error: …".
    ['gas_price', [null], 'Internal error: disk on fire'],
    [
      'EXPERIMENTAL_light_client_block_proof',
      { block_hash: HASH, light_client_head: HASH },
      'Internal error: disk on fire',
    ],
    // RpcStateChangesError, RpcReceiptError, RpcStatusError, RpcLightClientNextBlockError,
    // RpcNetworkInfoError: the enum itself.
    ['EXPERIMENTAL_changes_in_block', { finality: 'final' }, SERIALIZED],
    ['EXPERIMENTAL_receipt', { receipt_id: HASH }, SERIALIZED],
    ['status', [], SERIALIZED],
    ['next_light_client_block', { last_block_hash: HASH }, SERIALIZED],
    ['network_info', [], SERIALIZED],
  ];
  for (const [method, params, data] of cases) {
    const r = await call(backend, method, params);
    t.equal(r.status, 500, method);
    t.same(r.error, expected('disk on fire', data), method);
  }
});

t.test('the transaction methods lose the message from the cause, as nearcore does', async (t) => {
  // RpcTransactionError::InternalError { debug_info }: the lift to INTERNAL_ERROR looks for
  // info.error_message, finds none and says so; only `data` keeps the text.
  const backend = failing(() => HandlerError.internal('upstream gone'));
  const lost = 'InternalError happened during serializing InternalError';
  for (const [method, params] of [
    ['send_tx', { signed_tx_base64: TX, wait_until: 'NONE' }],
    ['broadcast_tx_commit', [TX]],
    ['tx', { tx_hash: HASH, sender_account_id: 'a.near' }],
    ['EXPERIMENTAL_tx_status', { tx_hash: HASH, sender_account_id: 'a.near' }],
  ] as const) {
    const r = await call(backend, method, params);
    t.equal(r.status, 500, method);
    t.same(r.error, expected(lost, `${LIMITS}upstream gone`), method);
  }
});

t.test('a view method on a collected block', async (t) => {
  // The EXPERIMENTAL_view_* enums make query's GarbageCollectedBlock an InternalError of theirs.
  const message =
    'The data for block #1 is garbage collected on this node, use an archival node to fetch historical data';
  const backend = failing(
    () => new HandlerError('GARBAGE_COLLECTED_BLOCK', { block_height: 1, block_hash: HASH }, message),
  );
  for (const method of [
    'EXPERIMENTAL_view_account',
    'EXPERIMENTAL_view_code',
    'EXPERIMENTAL_view_access_key_list',
  ]) {
    const r = await call(backend, method, { block_id: 1, account_id: 'a.near' });
    t.equal(r.status, 500, method);
    t.same(r.error, expected(message, `${LIMITS}${message}`), method);
  }
  const q = await call(backend, 'query', { request_type: 'view_account', block_id: 1, account_id: 'a.near' });
  t.equal(q.error.cause.name, 'GARBAGE_COLLECTED_BLOCK', 'query keeps its own handler error');
  t.equal(q.error.data, message);
});

t.test('a fault nothing typed takes the method form too', async (t) => {
  const backend = failing(() => new Error('disk on fire'));
  const block = await call(backend, 'block', { finality: 'final' });
  t.same(block.error, expected('disk on fire', `${LIMITS}disk on fire`));
  const ff = await call(backend, 'sandbox_fast_forward', { delta_height: 1 });
  t.same(ff.error, expected('disk on fire', SERIALIZED));
});
