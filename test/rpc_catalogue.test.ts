// The methods of nearcore's OpenAPI catalogue beyond the everyday ones, called through
// @near-js/jsonrpc-client (which validates every answer against its schemas) on a running node:
// validators_ordered, light_client_block_proof, congestion_level, maintenance_windows,
// split_storage_info and client_config; and the EXPERIMENTAL_ view methods of newer nodes, `query`'s
// kinds as methods of their own.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  clientConfig,
  experimentalCongestionLevel,
  experimentalLightClientBlockProof,
  experimentalMaintenanceWindows,
  experimentalSplitStorageInfo,
  experimentalValidatorsOrdered,
  maintenanceWindows,
  NearRpcClient,
} from '@near-js/jsonrpc-client';
import bs58 from 'bs58';
import t from 'tap';
import { addGenesisCounter } from './helpers/genesis_counter.js';
import { type BlockHeaderLite, blockHash, computeRoot, type MerklePathItem } from './helpers/light_client.js';
import { initHome, type RunningNode, rawRpc, readKeyFile, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

/** nearcore's localnet validator stake (TESTING_INIT_STAKE, 50,000,000 NEAR). */
const LOCALNET_STAKE = '50000000000000000000000000000000';
const EPOCH_LENGTH = 10;

interface Header {
  height: number;
  hash: string;
  last_final_block: string;
  block_merkle_root: string;
}

t.test('the rest of the OpenAPI catalogue answers through @near-js/jsonrpc-client', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--shards', '2', '--epoch-length', String(EPOCH_LENGTH)]);
  const key = readKeyFile(home);
  // A contract from genesis, for the view methods: counter.test.near holds the counter at 7.
  await addGenesisCounter(home);
  // An account with five 20,000-byte values, k0…k4, for view_state's pages.
  const genesisPath = join(home, 'genesis.json');
  const genesis = JSON.parse(readFileSync(genesisPath, 'utf8')) as {
    records: unknown[];
    total_supply: string;
  };
  genesis.total_supply = (BigInt(genesis.total_supply) + 10n ** 25n).toString();
  genesis.records.push({
    Account: {
      account_id: 'pages.test.near',
      account: {
        amount: '10000000000000000000000000',
        locked: '0',
        code_hash: '11111111111111111111111111111111',
        storage_usage: 0,
      },
    },
  });
  for (let i = 0; i < 5; i++) {
    genesis.records.push({
      Data: {
        account_id: 'pages.test.near',
        data_key: Buffer.from(`k${i}`).toString('base64'),
        value: Buffer.alloc(20_000, 120).toString('base64'),
      },
    });
  }
  writeFileSync(genesisPath, JSON.stringify(genesis));
  const node: RunningNode = await startNode(home, ['--block-time', '100']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 8);
  const client = new NearRpcClient({ endpoint: node.url, retries: 0 });
  const header = async (params: object): Promise<Header> =>
    ((await node.rpc<{ header: Header }>('block', params)).body.result as { header: Header }).header;

  t.test('EXPERIMENTAL_validators_ordered: the block producers of the block’s epoch', async (t) => {
    const expected = [
      {
        validatorStakeStructVersion: 'V1',
        accountId: 'test.near',
        publicKey: key.public_key,
        stake: LOCALNET_STAKE,
      },
    ];
    t.same(await experimentalValidatorsOrdered(client, { blockId: null }), expected, 'at the head');
    t.same(await experimentalValidatorsOrdered(client, { blockId: 3 }), expected, 'at a height');
    const final = await header({ finality: 'final' });
    t.same(await experimentalValidatorsOrdered(client, { blockId: final.hash }), expected, 'at a hash');
    const unknown = await node.rpc('EXPERIMENTAL_validators_ordered', { block_id: 10_000_000 });
    t.equal(unknown.status, 200);
    t.same(unknown.body.error, {
      name: 'HANDLER_ERROR',
      cause: { name: 'UNKNOWN_EPOCH' },
      code: -32000,
      message: 'Server error',
      data: 'Unknown Epoch',
    });
  });

  t.test('EXPERIMENTAL_light_client_block_proof: a final block under a later final head', async (t) => {
    const head = await header({ finality: 'final' });
    const past = await header({ block_id: head.height - 4 });
    const r = (await experimentalLightClientBlockProof(client, {
      blockHash: past.hash,
      lightClientHead: head.hash,
    })) as { blockHeaderLite: unknown; blockProof: unknown[] };
    // The raw answer, in nearcore's snake_case, for the independent light client's checks.
    const raw = (
      await node.rpc<{ block_header_lite: BlockHeaderLite; block_proof: MerklePathItem[] }>(
        'EXPERIMENTAL_light_client_block_proof',
        { block_hash: past.hash, light_client_head: head.hash },
      )
    ).body.result!;
    t.equal(r.blockProof.length, raw.block_proof.length);
    t.equal(bs58.encode(blockHash(raw.block_header_lite)), past.hash, 'the lite header hashes to the block');
    t.equal(
      bs58.encode(computeRoot(bs58.decode(past.hash), raw.block_proof)),
      head.block_merkle_root,
      "the path leads to the head's block_merkle_root",
    );
    const self = await node.rpc<{ block_proof: unknown[] }>('EXPERIMENTAL_light_client_block_proof', [
      head.hash,
      head.hash,
    ]);
    t.same(self.body.result?.block_proof, [], 'the head proves itself with an empty path');

    const ahead = await node.rpc('EXPERIMENTAL_light_client_block_proof', {
      block_hash: head.hash,
      light_client_head: past.hash,
    });
    t.equal(ahead.status, 500);
    t.equal(ahead.body.error?.cause?.name, 'INTERNAL_ERROR');
    t.equal(
      ahead.body.error?.cause?.info?.error_message,
      `block ${head.hash} is ahead of head block ${past.hash}`,
    );
    const tip = await header({ finality: 'optimistic' });
    const notFinal = await node.rpc('EXPERIMENTAL_light_client_block_proof', {
      block_hash: past.hash,
      light_client_head: tip.hash,
    });
    t.equal(notFinal.status, 500, 'a head that is not final yet');
    t.equal(notFinal.body.error?.cause?.info?.error_message, `${tip.hash} not on current chain`);
    const missing = '11111111111111111111111111111111';
    const unknown = await node.rpc('EXPERIMENTAL_light_client_block_proof', {
      block_hash: missing,
      light_client_head: head.hash,
    });
    t.equal(unknown.status, 200);
    t.equal(unknown.body.error?.cause?.name, 'UNKNOWN_BLOCK');
    t.same(unknown.body.error?.cause?.info, {});
  });

  t.test('EXPERIMENTAL_congestion_level: an idle shard is not congested', async (t) => {
    const final = await header({ finality: 'final' });
    t.same(await experimentalCongestionLevel(client, { blockId: final.height, shardId: 1 }), {
      congestionLevel: 0,
    });
    const chunk = await node.rpc<{ header: { chunk_hash: string } }>('chunk', {
      block_id: final.height,
      shard_id: 0,
    });
    t.same(await experimentalCongestionLevel(client, { chunkId: chunk.body.result!.header.chunk_hash }), {
      congestionLevel: 0,
    });
    // RpcCongestionLevelResponse's f64, as serde_json writes it.
    const text = await rawRpc(node.url, 'EXPERIMENTAL_congestion_level', {
      block_id: final.height,
      shard_id: 0,
    });
    t.match(text.body, /"result":\{"congestion_level":0\.0\}/);
    const badShard = await node.rpc('EXPERIMENTAL_congestion_level', { block_id: final.height, shard_id: 7 });
    t.equal(badShard.body.error?.cause?.name, 'INVALID_SHARD_ID');
    t.same(badShard.body.error?.cause?.info, { shard_id: 7 });
    const unknown = await node.rpc('EXPERIMENTAL_congestion_level', {
      chunk_id: '11111111111111111111111111111111',
    });
    t.equal(unknown.body.error?.cause?.name, 'UNKNOWN_CHUNK');
  });

  t.test('maintenance_windows: none for the validator, the rest of the epoch for anyone else', async (t) => {
    t.same(await maintenanceWindows(client, { accountId: 'test.near' }), []);
    t.same(await experimentalMaintenanceWindows(client, { accountId: 'test.near' }), []);
    // The head moves on while the answer is read: retried until one epoch holds the three reads.
    for (let attempt = 0; ; attempt++) {
      const before = await node.rpc<{ epoch_start_height: number }>('validators', [null]);
      const windows = (await maintenanceWindows(client, { accountId: 'alice.test.near' })) as {
        start: number;
        end: number;
      }[];
      const after = await node.rpc<{ epoch_start_height: number }>('validators', [null]);
      const start = before.body.result!.epoch_start_height;
      if (start !== after.body.result!.epoch_start_height && attempt < 10) continue;
      t.equal(windows.length, 1);
      t.equal(windows[0]!.end, start + EPOCH_LENGTH, 'up to the next epoch’s first height');
      t.ok(windows[0]!.start >= start && windows[0]!.start < windows[0]!.end, 'from the head');
      break;
    }
    const bad = await node.rpc('maintenance_windows', { account_id: 'Not Valid' });
    t.equal(bad.status, 400);
    t.equal(bad.body.error?.cause?.name, 'PARSE_ERROR');
  });

  t.test('EXPERIMENTAL_split_storage_info: one database, no cold head', async (t) => {
    const info = (await experimentalSplitStorageInfo(client, {})) as {
      headHeight: number;
      finalHeadHeight: number;
      coldHeadHeight: number | null;
      hotDbKind: string;
    };
    t.equal(info.coldHeadHeight, null);
    t.equal(info.hotDbKind, 'RPC', 'a node that collects garbage');
    t.ok(info.finalHeadHeight <= info.headHeight - 2, 'the final head trails the head');
    const missing = await node.rpc('EXPERIMENTAL_split_storage_info', null);
    t.equal(missing.status, 400, 'params are a struct, not null');
  });

  t.test('EXPERIMENTAL_ view methods answer as query does, and fail as errors of their own', async (t) => {
    const final = await header({ finality: 'final' });
    const at = { block_id: final.height };
    for (const [method, fields] of [
      ['view_account', { account_id: 'counter.test.near' }],
      ['view_code', { account_id: 'counter.test.near' }],
      ['view_state', { account_id: 'counter.test.near', prefix_base64: '' }],
      ['view_access_key', { account_id: 'test.near', public_key: key.public_key }],
      ['view_access_key_list', { account_id: 'test.near' }],
      ['call_function', { account_id: 'counter.test.near', method_name: 'get', args_base64: '' }],
    ] as const) {
      const viaQuery = await node.rpc('query', { request_type: method, ...fields, ...at });
      const own = await node.rpc(`EXPERIMENTAL_${method}`, { ...fields, ...at });
      t.ok(viaQuery.body.result, `query ${method} answers`);
      t.same(own.body.result, viaQuery.body.result, `EXPERIMENTAL_${method}: query's result`);
    }
    const call = (method_name: string, account_id = 'counter.test.near') =>
      node.rpc('EXPERIMENTAL_call_function', { account_id, method_name, args_base64: '', ...at });
    const fails = async (r: Awaited<ReturnType<typeof call>>, vmError: unknown, text: string) => {
      t.equal(r.status, 200);
      t.same(r.body.error?.cause, {
        name: 'CONTRACT_EXECUTION_ERROR',
        info: { vm_error: vmError, block_height: final.height, block_hash: final.hash },
      });
      t.equal(r.body.error?.data, `Function call returned an error: ${text}`);
    };
    // nearcore's primitives FunctionCallError: a host error is its message, the rest as the VM says.
    await fails(
      await call('increment'),
      { ExecutionError: 'storage_write is not allowed in view calls' },
      'ExecutionError("storage_write is not allowed in view calls")',
    );
    await fails(
      await call('nope'),
      { MethodResolveError: 'MethodNotFound' },
      'MethodResolveError(MethodNotFound)',
    );
    await fails(
      await call('get', 'test.near'),
      { CompilationError: { CodeDoesNotExist: { account_id: 'test.near' } } },
      'CompilationError(CodeDoesNotExist { account_id: "test.near" })',
    );
    const legacy = await node.rpc<{ error: string }>('query', {
      request_type: 'call_function',
      account_id: 'counter.test.near',
      method_name: 'nope',
      args_base64: '',
      ...at,
    });
    t.equal(
      legacy.body.result?.error,
      'wasm execution failed with error: MethodResolveError(MethodNotFound)',
      'query keeps its legacy answer',
    );
    const other = 'ed25519:8SADZ8uSxabMedxxXu5UxuVJdcGhx4kso22E6eHyPyuQ';
    const noKey = await node.rpc('EXPERIMENTAL_view_access_key', {
      account_id: 'test.near',
      public_key: other,
      ...at,
    });
    t.same(noKey.body.error?.cause, {
      name: 'UNKNOWN_ACCESS_KEY',
      info: { public_key: other, block_height: final.height, block_hash: final.hash },
    });
    t.equal(noKey.body.error?.data, `Access key for public key ${other} does not exist while viewing`);
    const unknown = await node.rpc('EXPERIMENTAL_view_account', {
      account_id: 'test.near',
      block_id: 10_000_000,
    });
    t.same(unknown.body.error?.cause, {
      name: 'UNKNOWN_BLOCK',
      info: { block_reference: { block_id: 10_000_000 } },
    });
    t.equal(
      unknown.body.error?.data,
      'Block either has never been observed on the node or has been garbage collected: BlockId(Height(10000000))',
    );
    const array = await node.rpc('EXPERIMENTAL_view_account', ['test.near']);
    t.equal(array.status, 400, 'an object only');
    t.equal(
      array.body.error?.data,
      'Failed parsing args: invalid type: sequence, expected struct RpcViewAccountRequest',
    );
  });

  t.test('view_state pages (after_key_base64, limit, last_key), as newer nodes serve them', async (t) => {
    const final = await header({ finality: 'final' });
    const b64 = (k: string) => Buffer.from(k).toString('base64');
    const page = async (extra: object, method = 'query') => {
      const params = { account_id: 'pages.test.near', prefix_base64: '', block_id: final.height, ...extra };
      const r = await node.rpc<{ values: { key: string }[]; last_key?: string }>(
        method,
        method === 'query' ? { request_type: 'view_state', ...params } : params,
      );
      return r.body.result ?? r.body.error;
    };
    const keys = (p: { values: { key: string }[] }) =>
      p.values.map((v) => Buffer.from(v.key, 'base64').toString());
    const first = (await page({ limit: 2 })) as { values: { key: string }[]; last_key?: string };
    t.same(keys(first), ['k0', 'k1']);
    t.equal(first.last_key, b64('k1'), 'another key follows: the page names its last');
    const second = (await page({ after_key_base64: first.last_key, limit: 2 })) as typeof first;
    t.same(keys(second), ['k2', 'k3']);
    const third = (await page({ after_key_base64: second.last_key, limit: 2 })) as typeof first;
    t.same(keys(third), ['k4']);
    t.notOk('last_key' in third, 'the last page names none');
    // 50,000 bytes of trie key and value, checked before each item: 3 × (19 + 20,000) bytes.
    const bytes = (await page({ limit: 10 }, 'EXPERIMENTAL_view_state')) as typeof first;
    t.same(keys(bytes), ['k0', 'k1', 'k2']);
    t.equal(bytes.last_key, b64('k2'));
    const whole = (await page({})) as { name?: string; cause?: { name: string } };
    t.equal(whole.cause?.name, 'TOO_LARGE_CONTRACT_STATE', 'unpaged, the whole-state limit holds');
    const zero = (await page({ limit: 0 })) as { data?: string };
    t.equal(zero.data, 'Failed parsing args: invalid value: integer `0`, expected a nonzero u32');
    const proof = (await page({ limit: 1, include_proof: true })) as { data?: string };
    t.equal(
      proof.data,
      'include_proof is not supported with paginated view_state (after_key_base64 / limit)',
    );
    const outside = (await page({ prefix_base64: b64('k'), after_key_base64: b64('a') })) as {
      data?: string;
    };
    t.equal(outside.data, 'after_key_base64 must start with prefix_base64');
  });

  t.test('client_config: what this node is configured to do, in ClientConfig’s shape', async (t) => {
    const c = (await clientConfig(client)) as Record<string, unknown>;
    const raw = (await node.rpc<Record<string, unknown>>('client_config', [])).body.result!;
    t.equal(Object.keys(raw).length, 70, "every field of nearcore's schema");
    t.equal(c.chainId, 'test-chain');
    t.equal(c.epochLength, EPOCH_LENGTH);
    t.equal(c.archive, false);
    t.equal(c.saveTrieChanges, true, 'a node that collects garbage keeps the trie changes it needs');
    const status = await node.rpc<{ rpc_addr: string }>('status', []);
    t.equal(c.rpcAddr, status.body.result!.rpc_addr, 'the address it was told to listen on');
    t.same(c.minBlockProductionDelay, [0, 100_000_000], 'the block time, as [secs, nanos]');
    t.equal(c.trieViewerStateSizeLimit, 50_000);
    t.equal(c.trackedShardsConfig, 'AllShards');
    t.same(raw.gc, {
      gc_blocks_limit: 2,
      gc_fork_clean_step: 100,
      gc_num_epochs_to_keep: 5,
      gc_step_period: { secs: 0, nanos: 500_000_000 },
    });
    t.equal(raw.expected_shutdown, 'null', 'a mutable value is the JSON text of its value');
  });
});
