// nearcore's serde JSON of actions (genesis records, and inside a delegate action's view), checked
// against the schemas nearcore publishes for them (its OpenRPC spec), and the views that embed it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  actionJson,
  actionView,
  base58Encode,
  receiptJson,
  receiptView,
  sha256,
  toBase64,
} from '@nearlite/primitives';
import t from 'tap';
import { EVERY_ACTION, EVERY_RECEIPT, NON_DELEGATE_ACTIONS } from '../../../test/helpers/every_action.js';

type Schema = Record<string, unknown>;
const SCHEMAS = (
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'nearcore_action_schemas.json'), 'utf8')) as {
    schemas: Record<string, Schema>;
  }
).schemas;

/** The errors of `v` against `s` (the JSON Schema subset nearcore's spec uses); none when it fits. */
function check(v: unknown, s: Schema, path = '$'): string[] {
  if (typeof s.$ref === 'string') return check(v, SCHEMAS[s.$ref.split('/').pop()!]!, path);
  const errs: string[] = [];
  if (Array.isArray(s.allOf)) for (const sub of s.allOf as Schema[]) errs.push(...check(v, sub, path));
  if (Array.isArray(s.oneOf)) {
    const fits = (s.oneOf as Schema[]).filter((sub) => check(v, sub, path).length === 0).length;
    if (fits !== 1) errs.push(`${path}: fits ${fits} of oneOf`);
  }
  if ('const' in s && v !== s.const) errs.push(`${path}: not ${String(s.const)}`);
  const type = s.type as string | undefined;
  const kind = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
  if (type === 'integer' && !(typeof v === 'number' && Number.isInteger(v)) && typeof v !== 'bigint')
    errs.push(`${path}: not an integer`);
  else if (type !== undefined && type !== 'integer' && type !== kind)
    errs.push(`${path}: ${kind}, not ${type}`);
  if (kind === 'object' && type === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of (s.required as string[] | undefined) ?? []) if (!(k in o)) errs.push(`${path}: no ${k}`);
    const props = (s.properties as Record<string, Schema> | undefined) ?? {};
    for (const [k, x] of Object.entries(o)) {
      if (props[k]) errs.push(...check(x, props[k], `${path}.${k}`));
      else if (s.additionalProperties === false) errs.push(`${path}: unexpected ${k}`);
      else if (typeof s.additionalProperties === 'object')
        errs.push(...check(x, s.additionalProperties as Schema, `${path}.${k}`));
    }
  }
  if (kind === 'array' && Array.isArray(s.items)) {
    const items = s.items as Schema[];
    if ((v as unknown[]).length !== items.length) errs.push(`${path}: not a tuple of ${items.length}`);
    for (const [i, x] of (v as unknown[]).entries())
      if (items[i]) errs.push(...check(x, items[i]!, `${path}[${i}]`));
  } else if (kind === 'array' && s.items) {
    for (const [i, x] of (v as unknown[]).entries())
      errs.push(...check(x, s.items as Schema, `${path}[${i}]`));
  }
  return errs;
}

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

t.test('the checker refuses what the schemas refuse', async (t) => {
  t.same(check({ CreateAccount: {} }, ref('NonDelegateAction')), []);
  t.ok(check('CreateAccount', ref('NonDelegateAction')).length > 0, 'the view form of CreateAccount');
  t.ok(
    check({ FunctionCall: { method_name: 'a', args: '', gas: '1', deposit: '0' } }, ref('NonDelegateAction'))
      .length > 0,
  );
  t.ok(
    check({ UseGlobalContract: { contract_identifier: { CodeHash: 'x' } } }, ref('NonDelegateAction'))
      .length > 0,
    'the old identifier tags',
  );
});

t.test('every action but a delegate fits nearcore’s NonDelegateAction schema', async (t) => {
  for (const a of NON_DELEGATE_ACTIONS) t.same(check(actionJson(a), ref('NonDelegateAction')), [], a.type);
});

t.test('Delegate and DelegateV2 fit nearcore’s signed delegate action schemas', async (t) => {
  const [v1, v2, v2Gas] = EVERY_ACTION.slice(-3).map((a) => actionJson(a) as Record<string, unknown>);
  t.same(check(v1!.Delegate, ref('SignedDelegateAction')), []);
  t.same(check(v2!.DelegateV2, ref('VersionedSignedDelegateAction')), []);
  t.same(check(v2Gas!.DelegateV2, ref('VersionedSignedDelegateAction')), []);
  t.same((v2Gas!.DelegateV2 as { delegate_action: { V2: { nonce: unknown } } }).delegate_action.V2.nonce, {
    GasKeyNonce: { nonce: 5, nonce_index: 3 },
  });
});

t.test('a gas key’s function-call permission is nearcore’s tuple variant', async (t) => {
  const addKey = NON_DELEGATE_ACTIONS.find(
    (a) =>
      a.type === 'AddKey' && a.accessKey.permission.kind === 'FunctionCall' && a.accessKey.permission.gasKey,
  )!;
  t.same((actionJson(addKey) as { AddKey: { access_key: unknown } }).AddKey.access_key, {
    nonce: 0,
    permission: {
      GasKeyFunctionCall: [
        { balance: '1000000000000000000000', num_nonces: 4 },
        { allowance: null, receiver_id: 'app.near', method_names: [] },
      ],
    },
  });
});

t.test('a delegate action’s view holds its actions in their serde form', async (t) => {
  const delegate = EVERY_ACTION.find((a) => a.type === 'Delegate')!;
  const view = actionView(delegate) as { Delegate: { delegate_action: { actions: unknown[] } } };
  t.same(view.Delegate.delegate_action.actions[0], { CreateAccount: {} }, 'not the view’s "CreateAccount"');
  t.same(check(view.Delegate, ref('SignedDelegateAction')), []);
  // Outside a delegate action the view is unchanged.
  t.equal(actionView({ type: 'CreateAccount' }), 'CreateAccount');
});

t.test('receipts: their serde form, and a distribution receipt’s view names its code by hash', async (t) => {
  const [action, yielded, v2, v2None, , data, resume, dist1, dist2] = EVERY_RECEIPT.map(
    (r) => receiptJson(r) as { receipt: Record<string, Record<string, unknown>> },
  );
  t.same(Object.keys(action!), ['predecessor_id', 'receiver_id', 'receipt_id', 'receipt']);
  t.same(Object.keys(action!.receipt.Action!), [
    'signer_id',
    'signer_public_key',
    'gas_price',
    'output_data_receivers',
    'input_data_ids',
    'actions',
  ]);
  t.ok(yielded!.receipt.PromiseYield);
  t.same(Object.keys(v2!.receipt.ActionV2!).slice(0, 2), ['signer_id', 'refund_to']);
  t.equal(v2!.receipt.ActionV2!.refund_to, 'refunds.near');
  t.equal(v2None!.receipt.ActionV2!.refund_to, null);
  t.same(data!.receipt, { Data: { data_id: base58Encode(new Uint8Array(32).fill(5)), data: 'AQI=' } });
  t.same(Object.keys(resume!.receipt), ['PromiseResume']);
  t.same(Object.keys(dist1!.receipt.GlobalContractDistribution!), ['V1']);
  t.same((dist2!.receipt.GlobalContractDistribution as { V2: { id: unknown; nonce: unknown } }).V2.id, {
    account_id: 'lib.near',
  });
  const view = receiptView(EVERY_RECEIPT[7]!) as {
    receipt: { GlobalContractDistribution: Record<string, unknown> };
  };
  t.same(view.receipt.GlobalContractDistribution, {
    id: { hash: base58Encode(new Uint8Array(32).fill(6)) },
    target_shard: 2n,
    already_delivered_shards: [0n, 1n],
    code: toBase64(sha256(Uint8Array.of(0, 97, 115, 109))),
  });
});
