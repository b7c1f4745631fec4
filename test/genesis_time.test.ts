// genesis_time as nearcore keeps it: no block before it (start_client's wait_until_genesis, said
// every 10 s at most), its instant written back in UTC with nine fraction digits as nearcore's
// genesis config and status write times (near_time's Iso8601::DEFAULT), and a time no block
// timestamp holds (a u64 of nanoseconds from 1970) refused by name.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { initHome, refused, startNode, waitForHeight } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

function setGenesisTime(home: string, text: string): void {
  const path = join(home, 'genesis.json');
  const g = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  writeFileSync(path, JSON.stringify({ ...g, genesis_time: text }, null, 2));
}

const NINE_DIGITS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/;

t.test('a genesis time still to come: the node waits for it, then its blocks follow the clock', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const genesisMs = Date.now() + 4_000;
  // An offset other than Z, and a fraction of fewer digits: the same instant, written back in UTC.
  const text = new Date(genesisMs + 2 * 3_600_000).toISOString().replace('Z', '+02:00');
  setGenesisTime(home, text);
  const node = await startNode(home, ['--block-time', '100']);
  t.teardown(() => node.stop());
  const status = (await node.rpc<{ sync_info: Record<string, unknown> }>('status', [])).body.result!
    .sync_info;
  t.equal(status.latest_block_height, 0, 'no block before the genesis time');
  const utc = `${new Date(genesisMs).toISOString().slice(0, 23)}000000Z`;
  t.equal(status.latest_block_time, utc, 'the genesis block time, nine fraction digits');
  t.equal(status.earliest_block_time, utc);
  for (const method of ['EXPERIMENTAL_genesis_config', 'EXPERIMENTAL_protocol_config']) {
    const params = method === 'EXPERIMENTAL_genesis_config' ? [] : { finality: 'final' };
    const r = await node.rpc<{ genesis_time: string }>(method, params);
    t.equal(r.body.result!.genesis_time, utc, `${method}: the instant in UTC`);
  }
  await waitForHeight(node, 1);
  t.ok(Date.now() >= genesisMs, 'the first block came once the genesis time had passed');
  t.match(node.logs(), /"msg":"chain: Waiting until genesis: 0d 0h 0m [0-4]s"/, "said as nearcore's says it");
  const block = (await node.rpc<{ header: { timestamp_nanosec: string } }>('block', { block_id: 1 })).body
    .result!.header;
  // Stamped with the clock a block time after it, not the genesis time and a nanosecond.
  t.ok(
    BigInt(block.timestamp_nanosec) - BigInt(genesisMs) * 1_000_000n >= 50_000_000n,
    'block 1 follows the clock',
  );
  const latest = (await node.rpc<{ sync_info: { latest_block_time: string } }>('status', [])).body.result!
    .sync_info.latest_block_time;
  t.match(latest, NINE_DIGITS, `the latest block time too: ${latest}`);
});

t.test('a sandbox asked for blocks before the genesis time makes them once it has passed', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--epoch-length', '20']);
  const genesisMs = Date.now() + 4_000;
  setGenesisTime(home, new Date(genesisMs).toISOString());
  const node = await startNode(home, ['--block-time', '600000', '--sandbox']);
  t.teardown(() => node.stop());
  const patched = node.rpc('sandbox_patch_state', {
    records: [{ Data: { account_id: 'test.near', data_key: 'aw==', value: 'dg==' } }],
  });
  const forwarded = node.rpc('sandbox_fast_forward', { delta_height: 5 });
  t.same((await patched).body.result, {}, 'the patch is written');
  t.same((await forwarded).body.result, {}, 'the fast-forward made its blocks');
  t.ok(Date.now() >= genesisMs, 'once the genesis time had passed');
  const head = (
    await node.rpc<{ header: { height: number; timestamp_nanosec: string } }>('block', {
      finality: 'optimistic',
    })
  ).body.result!.header;
  t.ok(head.height >= 6, `head #${head.height}`);
  // The skipped heights move block time on from the clock, past the genesis time by seconds.
  t.ok(BigInt(head.timestamp_nanosec) - BigInt(genesisMs) * 1_000_000n > 1_000_000_000n, 'stamped after it');
});

t.test('a genesis time no block timestamp holds is refused, naming genesis_time', async (t) => {
  for (const text of ['1960-06-01T00:00:00.5Z', '2600-01-01T00:00:00Z']) {
    const home = tempDir(t);
    initHome(home);
    setGenesisTime(home, text);
    refused(
      t,
      ['run', '--home', home, '--rpc-addr', '127.0.0.1:0'],
      new RegExp(`genesis_time '${text}' is outside what a block timestamp holds`),
      text,
    );
  }
});
