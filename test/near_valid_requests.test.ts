// Requests a client could nearly have meant: each method's valid params, naming this node's own
// blocks, chunks, accounts, keys, transactions and receipts, mutated a little (a field dropped or
// renamed, a value swapped for an odd one, a character changed). Unlike random bodies, these reach
// the code behind the params checks, where a state the chain can be in (its genesis, whose last final
// block is the zero hash; heights a fast-forward skipped; the first epochs) may not have been thought
// of. Every answer must be nearcore's: a result or a typed error, never INTERNAL_ERROR or HTTP 500.
import { createHash } from 'node:crypto';
import {
  actions as A,
  baseDecode,
  baseEncode,
  createTransaction,
  KeyPairSigner,
  type KeyPairString,
} from 'near-api-js';
import t from 'tap';
import { contract } from './helpers/contracts.js';
import { initHome, type RunningNode, readKeyFile, startNode } from './helpers/node.js';
import { rng } from './helpers/rng.js';
import { tempDir } from './helpers/tmp.js';

interface Known {
  account: string;
  publicKey: string;
  blockHash: string;
  chunkHash: string;
  txHash?: string;
  receiptId?: string;
}

type Seed = readonly [method: string, params: () => unknown];

function seeds(k: Known, pick: <T>(a: readonly T[]) => T, sandbox: boolean): Seed[] {
  const ref = () =>
    pick<object>([
      { finality: 'final' },
      { finality: 'optimistic' },
      { finality: 'near-final' },
      { block_id: 0 },
      { block_id: 1 },
      { block_id: k.blockHash },
      { sync_checkpoint: 'genesis' },
      { sync_checkpoint: 'earliest_available' },
    ]);
  const acct = k.account;
  // Mostly the node's own account; sometimes one a sandbox patch may have written.
  const who = () => pick([acct, acct, acct, 'patched.test.near', 'p.near']);
  const pk = k.publicKey;
  const tx = k.txHash ?? k.blockHash;
  const receipt = k.receiptId ?? k.blockHash;
  const list: Seed[] = [
    ['block', ref],
    ['block', () => [1]],
    ['block_effects', ref],
    ['chunk', () => ({ chunk_id: k.chunkHash })],
    ['chunk', () => ({ block_id: k.blockHash, shard_id: 0 })],
    ['chunk', () => [k.chunkHash]],
    ['query', () => ({ ...ref(), request_type: 'view_account', account_id: who() })],
    ['query', () => ({ ...ref(), request_type: 'view_code', account_id: who() })],
    [
      'query',
      () => ({
        ...ref(),
        request_type: 'view_state',
        account_id: who(),
        prefix_base64: '',
        include_proof: true,
      }),
    ],
    ['query', () => ({ ...ref(), request_type: 'view_access_key', account_id: who(), public_key: pk })],
    ['query', () => ({ ...ref(), request_type: 'view_access_key_list', account_id: who() })],
    ['query', () => ({ ...ref(), request_type: 'view_gas_key_nonces', account_id: who(), public_key: pk })],
    [
      'query',
      () => ({
        ...ref(),
        request_type: 'call_function',
        account_id: who(),
        method_name: 'hello',
        args_base64: Buffer.from('{"name":"x"}').toString('base64'),
      }),
    ],
    ['query', () => ({ ...ref(), request_type: 'view_global_contract_code', code_hash: k.blockHash })],
    [
      'query',
      () => ({ ...ref(), request_type: 'view_global_contract_code_by_account_id', account_id: who() }),
    ],
    ['query', () => [`account/${who()}`, '']],
    ['query', () => [`call/${acct}/hello`, '']],
    ['query', () => [`access_key/${acct}/${pk}`, '']],
    ['query', () => [`contract/${acct}`, '']],
    ['EXPERIMENTAL_view_account', () => ({ ...ref(), account_id: who() })],
    ['EXPERIMENTAL_view_code', () => ({ ...ref(), account_id: who() })],
    ['EXPERIMENTAL_view_state', () => ({ ...ref(), account_id: who(), prefix_base64: '' })],
    ['EXPERIMENTAL_view_access_key', () => ({ ...ref(), account_id: who(), public_key: pk })],
    ['EXPERIMENTAL_view_access_key_list', () => ({ ...ref(), account_id: who() })],
    ['EXPERIMENTAL_view_gas_key_nonces', () => ({ ...ref(), account_id: who(), public_key: pk })],
    [
      'EXPERIMENTAL_call_function',
      () => ({ ...ref(), account_id: who(), method_name: 'hello', args_base64: '' }),
    ],
    ['tx', () => ({ tx_hash: tx, sender_account_id: acct })],
    ['EXPERIMENTAL_tx_status', () => ({ tx_hash: tx, sender_account_id: acct, wait_until: 'NONE' })],
    ['EXPERIMENTAL_receipt', () => ({ receipt_id: receipt })],
    ['EXPERIMENTAL_receipt_to_tx', () => ({ receipt_id: receipt })],
    ['changes', () => ({ ...ref(), changes_type: 'account_changes', account_ids: [who()] })],
    [
      'EXPERIMENTAL_changes',
      () => ({ ...ref(), changes_type: 'data_changes', account_ids: [who()], key_prefix_base64: '' }),
    ],
    [
      'EXPERIMENTAL_changes',
      () => ({
        ...ref(),
        changes_type: 'single_access_key_changes',
        keys: [{ account_id: who(), public_key: pk }],
      }),
    ],
    ['EXPERIMENTAL_changes_in_block', ref],
    ['EXPERIMENTAL_congestion_level', () => ({ ...ref(), shard_id: 0 })],
    ['EXPERIMENTAL_congestion_level', () => ({ chunk_id: k.chunkHash })],
    ['gas_price', () => [null]],
    ['gas_price', () => ({ block_id: k.blockHash })],
    ['EXPERIMENTAL_genesis_config', () => null],
    ['status', () => []],
    ['health', () => []],
    ['network_info', () => []],
    ['client_config', () => []],
    [
      'light_client_proof',
      () => ({ type: 'transaction', transaction_hash: tx, sender_id: acct, light_client_head: k.blockHash }),
    ],
    [
      'light_client_proof',
      () => ({ type: 'receipt', receipt_id: receipt, receiver_id: acct, light_client_head: k.blockHash }),
    ],
    [
      'EXPERIMENTAL_light_client_block_proof',
      () => ({ block_hash: k.blockHash, light_client_head: k.blockHash }),
    ],
    ['next_light_client_block', () => ({ last_block_hash: k.blockHash })],
    ['next_light_client_block', () => [k.blockHash]],
    ['EXPERIMENTAL_protocol_config', ref],
    ['validators', () => [null]],
    ['validators', () => ({ block_id: k.blockHash })],
    ['EXPERIMENTAL_validators_ordered', () => ({ block_id: null })],
    ['maintenance_windows', () => ({ account_id: who() })],
    ['EXPERIMENTAL_split_storage_info', () => ({})],
  ];
  if (!sandbox) return list;
  const patched = () => pick(['patched.test.near', 'p.near', 'f'.repeat(64), acct]);
  const record = () =>
    pick<() => object>([
      () => ({
        Account: {
          account_id: patched(),
          account: {
            amount: pick(['1', '10000000000000000000000000', '340282366920938463463374607431768211455']),
            locked: '0',
            code_hash: pick(['11111111111111111111111111111111', k.blockHash]),
            storage_usage: pick([0, 182, 2 ** 40]),
            ...pick([{}, { version: 'V2' }, { version: 'V2', global_contract_account_id: acct }]),
          },
        },
      }),
      () => ({
        AccessKey: {
          account_id: patched(),
          public_key: pk,
          access_key: pick([
            { nonce: 0, permission: 'FullAccess' },
            {
              nonce: 7,
              permission: { FunctionCall: { allowance: null, receiver_id: acct, method_names: ['hello'] } },
            },
          ]),
        },
      }),
      () => ({ Contract: { account_id: patched(), code: pick(['AGFzbQEAAAA=', '', 'AAEC']) } }),
      () => ({ Data: { account_id: patched(), data_key: pick(['aw==', '']), value: 'dg==' } }),
      () => ({ GasKeyNonce: { account_id: patched(), public_key: pk, index: 0, nonce: 5 } }),
    ])();
  list.push(['sandbox_fast_forward', () => ({ delta_height: 1 + Math.floor(pick([0, 1, 2])) })]);
  list.push(['sandbox_patch_state', () => ({ records: [record(), record()] })]);
  return list;
}

const ODD: readonly unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 53 + 2,
  '',
  ' ',
  '\u0000',
  'x'.repeat(300),
  '11111111111111111111111111111111',
  '18446744073709551616',
  [],
  {},
  { finality: 'final' },
  { block_id: 1 },
];
const FIELDS = [
  'finality',
  'block_id',
  'request_type',
  'account_id',
  'public_key',
  'shard_id',
  'sync_checkpoint',
];

function mutator(r: () => number) {
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const mutate = (v: unknown): unknown => {
    if (r() < 0.12) return pick(ODD);
    if (Array.isArray(v)) return v.map(mutate);
    if (v !== null && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [key, x] of Object.entries(v)) {
        if (r() < 0.08) continue;
        o[r() < 0.04 ? `${key}_` : key] = mutate(x);
      }
      if (r() < 0.08) o[pick(FIELDS)] = pick(ODD);
      return o;
    }
    if (typeof v === 'string' && v.length > 0 && r() < 0.25) {
      const i = Math.floor(r() * v.length);
      return v.slice(0, i) + pick(['', 'A', '0', '.', '-', '\u00e9']) + v.slice(i + 1);
    }
    if (typeof v === 'number' && r() < 0.25) return pick([v + 1, v - 1, -v, v * 2 ** 40]);
    return v;
  };
  return { pick, mutate };
}

/**
 * The INTERNAL_ERRORs nearcore itself answers: a light-client head or block that is not final and
 * canonical, or is ahead of the head (check_blocks_final_and_canonical and
 * compute_past_block_proof_in_merkle_tree_of_later_block return Error::Other, which GetBlockProofError
 * makes InternalError: chain/client-primitives/src/types.rs). And a Contract record without its
 * account's code hash: nearcore's apply_state_patch panics on one, which stops its sandbox, and
 * InternalError is the only error its sandbox_patch_state can answer. And a collected block asked of
 * the query methods of their own: their errors have no GARBAGE_COLLECTED_BLOCK, and nearcore makes it
 * an InternalError with its text (jsonrpc-primitives' types/view_account.rs and the rest).
 */
function nearcoreInternal(method: string, error: unknown): boolean {
  const message =
    (error as { cause?: { info?: { error_message?: string } } }).cause?.info?.error_message ?? '';
  return (
    ((method === 'light_client_proof' || method === 'EXPERIMENTAL_light_client_block_proof') &&
      / not on current chain$|^block \S+ is ahead of head block \S+$/.test(message)) ||
    (method === 'sandbox_patch_state' && /^Contract record of \S+/.test(message)) ||
    (/^EXPERIMENTAL_(view_|call_function)/.test(method) &&
      /^The data for block #\d+ is garbage collected on this node, use an archival node/.test(message))
  );
}

async function hammer(
  t: Tap.Test,
  node: RunningNode,
  known: Known,
  count: number,
  seed: number,
  sandbox: boolean,
) {
  const r = rng(seed);
  const { pick, mutate } = mutator(r);
  const list = seeds(known, pick, sandbox);
  const problems: string[] = [];
  const causes = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const [method, params] = pick(list);
    let p = r() < 0.75 ? mutate(params()) : params();
    // A transaction nobody sent is waited for until the polling timeout, as nearcore waits.
    if (method === 'tx' || method === 'EXPERIMENTAL_tx_status')
      p = { ...(p !== null && typeof p === 'object' ? p : {}), wait_until: 'NONE' };
    const res = await node.rpc(method, p);
    const error = res.body.error as { name?: string; cause?: { name?: string }; code?: number } | undefined;
    const cause = error ? (error.cause?.name ?? String(error.name)) : 'ok';
    causes.set(cause, (causes.get(cause) ?? 0) + 1);
    const what = () =>
      `${method} ${JSON.stringify(p).slice(0, 200)} → ${res.status} ${JSON.stringify(error)}`;
    if (res.status >= 500 || error?.name === 'INTERNAL_ERROR' || error?.cause?.name === 'INTERNAL_ERROR') {
      if (!nearcoreInternal(method, res.body.error)) problems.push(what());
    } else if (error && (typeof error.name !== 'string' || typeof error.code !== 'number'))
      problems.push(what());
  }
  t.same(problems.slice(0, 10), [], `${count} requests (seed ${seed}): ${JSON.stringify([...causes])}`);
}

t.test('near-valid requests at genesis and as the chain grows: typed errors only', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--shards', '2', '--epoch-length', '10']);
  const key = readKeyFile(home);
  // Blocks come only from sandbox_fast_forward: the chain stays at its genesis until asked.
  const node = await startNode(home, ['--sandbox', '--block-time', '3600000']);
  t.teardown(() => node.stop());
  const block = async () =>
    (
      await node.rpc<{ header: { hash: string; height: number }; chunks: { chunk_hash: string }[] }>(
        'block',
        {
          finality: 'optimistic',
        },
      )
    ).body.result!;
  const genesis = await block();
  t.equal(genesis.header.height, 0, 'the node waits at its genesis');
  const known: Known = {
    account: key.account_id,
    publicKey: key.public_key,
    blockHash: genesis.header.hash,
    chunkHash: genesis.chunks[0]!.chunk_hash,
  };
  await hammer(t, node, known, 1500, 1, false);
  t.equal((await block()).header.height, 0, 'still at the genesis');

  // A contract with a call and its receipts, put in blocks by fast-forwards (skipping heights).
  const signer = KeyPairSigner.fromSecretKey(key.secret_key as KeyPairString);
  const tx = createTransaction(
    key.account_id,
    await signer.getPublicKey(),
    key.account_id,
    1n,
    [
      A.deployContract(contract('main.wasm')),
      A.functionCall('hello', Buffer.from('{"name":"x"}'), 30n * 10n ** 12n, 0n),
    ],
    baseDecode(genesis.header.hash),
  );
  const { signedTransaction } = await signer.signTransaction(tx);
  const sent = await node.rpc('send_tx', {
    signed_tx_base64: Buffer.from(signedTransaction.encode()).toString('base64'),
    wait_until: 'NONE',
  });
  t.notOk(sent.body.error, 'the transaction is admitted', { error: sent.body.error });
  for (let i = 0; i < 4; i++) await node.rpc('sandbox_fast_forward', { delta_height: 7 });
  const txHash = baseEncode(createHash('sha256').update(tx.encode()).digest());
  const status = await node.rpc<{ receipts_outcome: { id: string }[] }>('tx', {
    tx_hash: txHash,
    sender_account_id: key.account_id,
  });
  t.ok(status.body.result, 'the transaction has executed', { error: status.body.error });
  const head = await block();
  t.ok(head.header.height > 20, 'the chain has grown past two epochs');
  await hammer(
    t,
    node,
    {
      ...known,
      blockHash: head.header.hash,
      chunkHash: head.chunks[1]!.chunk_hash,
      txHash,
      receiptId: status.body.result!.receipts_outcome[0]!.id,
    },
    3000,
    2,
    true,
  );
  t.equal((await node.rpc('status', [])).status, 200, 'the node is alive');
  const before = (await block()).header.height;
  t.same((await node.rpc('sandbox_fast_forward', { delta_height: 2 })).body.result, {});
  t.ok((await block()).header.height >= before + 2, 'and makes blocks over every patch it took');
});
