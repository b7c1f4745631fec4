// The acceptance vector for the state trie: the real mainnet genesis gives mainnet's state root.
import { join } from 'node:path';
import t from 'tap';
import { initHome, startNode } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

t.test('a node on the mainnet genesis serves its genesis block with the real state root', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--genesis', join(import.meta.dirname, 'fixtures', 'mainnet_genesis.json')]);
  const node = await startNode(home, ['--block-time', '100']);
  t.teardown(() => node.stop());
  t.match(node.logs(), /read-only/, 'the node says it cannot produce blocks');
  const block = await node.rpc<{ header: { height: number; prev_state_root: string } }>('block', {
    block_id: 9820210,
  });
  t.equal(block.body.result?.header.height, 9820210);
  t.equal(block.body.result?.header.prev_state_root, '5o1trt9N9YgDL4xeY33z9adS5Ub3jMmuyQpWM7UHowrq');
  const status = await node.rpc<{ sync_info: { latest_state_root: string; latest_block_height: number } }>(
    'status',
    [],
  );
  t.equal(status.body.result?.sync_info.latest_state_root, '5o1trt9N9YgDL4xeY33z9adS5Ub3jMmuyQpWM7UHowrq');
  t.equal(status.body.result?.sync_info.latest_block_height, 9820210);
  const account = await node.rpc<{ amount: string; storage_usage: number }>('query', {
    request_type: 'view_account',
    account_id: 'near',
    finality: 'final',
  });
  t.equal(account.body.result?.storage_usage, 197872, 'storage usage recomputed as nearcore does');
  const code = await node.rpc<{ hash: string }>('query', {
    request_type: 'view_code',
    account_id: 'near',
    finality: 'final',
  });
  t.match(code.body.result?.hash, /^23tqXYRd/, 'the registrar contract hash from the genesis record');
  // As nearcore's health check, which looks at the head block's age: a node that makes no blocks on
  // a genesis of 2020 is a stale node, and a load balancer should not send clients to it.
  const health = await node.rpc<null>('health', []);
  t.equal(health.body.error?.cause?.name, 'NO_NEW_BLOCKS');
  const secs =
    (health.body.error?.cause?.info as { elapsed?: { secs: number } } | undefined)?.elapsed?.secs ?? 0;
  t.ok(secs > 5 * 365 * 86_400, `the head block is ${secs} s old`);
  t.equal((await fetch(`${node.url}/health`)).status, 503, 'GET /health says so too');
});
