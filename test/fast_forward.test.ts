// sandbox_fast_forward as nearcore's sandbox does it (client_actor.rs sandbox_process_fast_forward,
// pytest/tests/sandbox/fast_forward*.py): the blocks of each epoch skip the heights up to three before
// its end, the heights around an epoch's end get their blocks one by one, a block that skips carries a
// Skip approval and its parent's doomslug finality, and every skipped height counts as a missed block
// (EpochInfoAggregator::update_tail), so an epoch mostly skipped pays its validator nothing
// (reward_calculator.rs: online ratio under online_min_threshold). The chain survives a SIGKILL and a
// restart, its light-client blocks validate, and a follower of it answers as it does.
import { createPublicKey, verify } from 'node:crypto';
import bs58 from 'bs58';
import t from 'tap';
import {
  blockHash,
  type LightClientBlock,
  type LightClientState,
  type ValidatorStake,
  validateLightClientBlock,
} from './helpers/light_client.js';
import {
  initHome,
  type RunningNode,
  rawRpc,
  readKeyFile,
  startFollower,
  startNode,
  waitForHeight,
} from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

const EPOCH = 20;
const SECONDS_PER_YEAR = 31_536_000n;

interface Header {
  height: number;
  prev_height: number;
  hash: string;
  prev_hash: string;
  epoch_id: string;
  next_epoch_id: string;
  last_final_block: string;
  last_ds_final_block: string;
  approvals: (string | null)[];
  total_supply: string;
  timestamp_nanosec: string;
  block_ordinal: number;
  prev_state_root: string;
  outcome_root: string;
  next_bp_hash: string;
  block_merkle_root: string;
}

const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};

function verifies(publicKey: string, message: Uint8Array, signature: string): boolean {
  const raw = bs58.decode(publicKey.replace(/^ed25519:/, ''));
  const der = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]);
  const key = createPublicKey({ key: der, format: 'der', type: 'spki' });
  return verify(null, message, key, bs58.decode(signature.replace(/^ed25519:/, '')));
}

async function header(node: RunningNode, blockId: number | string): Promise<Header | undefined> {
  return (await node.rpc<{ header: Header }>('block', { block_id: blockId })).body.result?.header;
}

/** The blocks from `from` (exclusive) to `to`, walking parent links down from `to`. */
async function blocksBetween(node: RunningNode, from: number, to: Header): Promise<Header[]> {
  const out: Header[] = [];
  for (let h: Header | undefined = to; h && h.height > from; h = await header(node, h.prev_hash)) out.push(h);
  return out.reverse();
}

t.test('a fast-forward skips heights as nearcore’s sandbox does', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--epoch-length', String(EPOCH)]);
  const key = readKeyFile(home);
  let node = await startNode(home, ['--block-time', '200', '--sandbox', '--archive']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 2);
  const before = (await node.rpc<{ header: Header }>('block', { finality: 'optimistic' })).body.result!
    .header;
  const delta = 5 * EPOCH;
  t.same((await node.rpc('sandbox_fast_forward', { delta_height: delta })).body.result, {});
  const after = (await node.rpc<{ header: Header }>('block', { finality: 'optimistic' })).body.result!.header;
  const target = before.height + delta;
  // The last jump lands one above the target, as nearcore's; the timer may add one block more.
  t.ok(after.height >= target && after.height <= target + 2, `head ${after.height}, target ${target}`);

  const blocks = await blocksBetween(node, before.height, after);
  t.ok(blocks.length < delta / 2, `${blocks.length} blocks for ${after.height - before.height} heights`);
  const heights = new Set(blocks.map((b) => b.height));
  let skips = 0;
  let prev = (await header(node, blocks[0]!.prev_hash))!;
  for (const b of blocks) {
    t.equal(b.prev_height, prev.height, `#${b.height} names its parent's height`);
    t.equal(b.block_ordinal, prev.block_ordinal + 1, `#${b.height}: ordinals count blocks`);
    const consecutive = b.height === prev.height + 1;
    // Approval::get_data_for_sig: borsh(ApprovalInner) ‖ target height (u64 LE).
    const inner = consecutive
      ? Buffer.concat([Buffer.of(0), bs58.decode(prev.hash)])
      : Buffer.concat([Buffer.of(1), u64(prev.height)]);
    t.ok(
      verifies(key.public_key, Buffer.concat([inner, u64(b.height)]), b.approvals[0]!),
      `#${b.height}: a${consecutive ? 'n Endorsement' : ' Skip'} approval`,
    );
    t.equal(
      b.last_ds_final_block,
      consecutive ? prev.hash : prev.last_ds_final_block,
      `#${b.height}: doomslug finality needs consecutive heights`,
    );
    if (!consecutive) {
      skips++;
      const skipped = await node.rpc('block', { block_id: b.height - 1 });
      t.equal(skipped.body.error?.cause.name, 'UNKNOWN_BLOCK', `#${b.height - 1} was skipped`);
    }
    prev = b;
  }
  t.ok(skips >= 4, `${skips} blocks skipped heights`);
  // Every epoch's last and first heights have their blocks, so epochs change as they would.
  for (let end = EPOCH * Math.ceil((before.height + 1) / EPOCH); end < after.height; end += EPOCH) {
    t.ok(heights.has(end) && heights.has(end + 1), `#${end} and #${end + 1} were produced`);
    const first = blocks.find((b) => b.height === end + 1)!;
    const last = blocks.find((b) => b.height === end)!;
    t.equal(first.epoch_id, last.next_epoch_id, `#${end + 1} starts the next epoch`);
  }

  // An epoch the fast-forward went through: each of its heights expected a block.
  const e = EPOCH * (Math.ceil((before.height + 1) / EPOCH) + 1);
  const ended = blocks.filter((b) => b.height > e && b.height <= e + EPOCH);
  const endedLast = ended[ended.length - 1]!;
  t.equal(endedLast.height, e + EPOCH);
  const info = await node.rpc<{ current_validators: { shards: number[]; [k: string]: unknown }[] }>(
    'validators',
    {
      epoch_id: endedLast.epoch_id,
    },
  );
  const v = info.body.result!.current_validators[0]!;
  t.equal(v.num_expected_blocks, EPOCH, 'every height of the epoch expected a block');
  t.equal(v.num_produced_blocks, ended.length, 'the blocks there are were produced');
  t.equal(
    v.num_expected_chunks,
    ended.length * v.shards.length,
    'chunks are expected of the blocks there are',
  );

  // Its reward: blocks ended.length/EPOCH, chunks and endorsements all, so the online ratio is
  // under 90 % and the validator gets nothing; the treasury's tenth is minted all the same.
  // The rates of the epoch config in force (nearcore picks Genesis::test_epoch_config's for a chain
  // like this one), as the protocol config reports them.
  const gc = (
    await node.rpc<{ max_inflation_rate: [number, number]; protocol_reward_rate: [number, number] }>(
      'EXPERIMENTAL_protocol_config',
      { finality: 'final' },
    )
  ).body.result!;
  const online = (ended.length / EPOCH + 2) / 3;
  t.ok(online < 0.9, `online ratio ${online.toFixed(2)}`);
  const prevEnd = (await header(node, e))!;
  const nextStart = (await header(node, e + EPOCH + 1))!;
  const [num, den] = gc.max_inflation_rate.map(BigInt) as [bigint, bigint];
  const supply = BigInt(endedLast.total_supply);
  const duration = BigInt(endedLast.timestamp_nanosec) - BigInt(prevEnd.timestamp_nanosec);
  const total = (supply * num * duration) / (den * SECONDS_PER_YEAR * 1_000_000_000n);
  const [pn, pd] = gc.protocol_reward_rate.map(BigInt) as [bigint, bigint];
  t.ok(total > 0n, 'the epoch mints');
  t.equal(BigInt(nextStart.total_supply) - supply, (total * pn) / pd, 'only the treasury’s share is minted');
  const locked = async (blockId: string) =>
    (
      await node.rpc<{ locked: string }>('query', {
        request_type: 'view_account',
        account_id: key.account_id,
        block_id: blockId,
      })
    ).body.result!.locked;
  t.equal(await locked(nextStart.hash), await locked(endedLast.hash), 'the validator’s stake did not grow');

  // The light client follows the chain from genesis across the skipped heights.
  const g = (await node.rpc<{ header: Header }>('block', { sync_checkpoint: 'genesis' })).body.result!.header;
  const genesisBps: ValidatorStake[] = [
    { account_id: key.account_id, public_key: key.public_key, stake: '0' },
  ];
  const gcValidators = (
    await node.rpc<{ validators: { account_id: string; public_key: string; amount: string }[] }>(
      'EXPERIMENTAL_genesis_config',
      {},
    )
  ).body.result!.validators;
  genesisBps[0] = { ...genesisBps[0]!, stake: gcValidators[0]!.amount };
  const state: LightClientState = {
    head: {
      prev_block_hash: g.prev_hash,
      inner_rest_hash: g.prev_hash,
      inner_lite: {
        height: g.height,
        epoch_id: g.epoch_id,
        next_epoch_id: g.next_epoch_id,
        prev_state_root: g.prev_state_root,
        outcome_root: g.outcome_root,
        timestamp_nanosec: g.timestamp_nanosec,
        next_bp_hash: g.next_bp_hash,
        block_merkle_root: g.block_merkle_root,
      },
    },
    epochBlockProducers: new Map([[g.epoch_id, genesisBps]]),
  };
  let last = g.hash;
  const epochs = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const r = await node.rpc<LightClientBlock | Record<string, never>>('next_light_client_block', {
      last_block_hash: last,
    });
    const b = r.body.result;
    if (!b || !('inner_lite' in b)) break;
    t.doesNotThrow(() => validateLightClientBlock(state, b), `light client block at ${b.inner_lite.height}`);
    epochs.add(b.inner_lite.epoch_id);
    last = bs58.encode(blockHash(b));
  }
  t.ok(epochs.size >= 4, `light client blocks span ${epochs.size} epochs`);

  // Killed and started again: the store's check walks parent links, so skipped heights are no holes.
  await node.kill();
  node = await startNode(home, ['--block-time', '200', '--sandbox', '--archive']);
  await waitForHeight(node, after.height + 2);
  t.pass('the node starts again on a chain with skipped heights');

  // A follower works the same stakes and counts out of the same blocks.
  const follower = await startFollower(home, node.url, ['--archive']);
  t.teardown(() => follower.stop());
  await waitForHeight(follower, after.height, 60_000);
  for (const params of [{ epoch_id: endedLast.epoch_id }, [endedLast.height]]) {
    const [a, b] = await Promise.all([
      rawRpc(node.url, 'validators', params),
      rawRpc(follower.url, 'validators', params),
    ]);
    t.equal(b.body, a.body, `the follower's validators at ${JSON.stringify(params)}`);
  }
});

t.test('one fast-forward at a time, as nearcore’s client keeps one target', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--epoch-length', String(EPOCH)]);
  const node = await startNode(home, ['--block-time', '200', '--sandbox']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 1);
  // About 2,000 blocks: the second request arrives while the first is under way.
  const answers = await Promise.all([
    node.rpc('sandbox_fast_forward', { delta_height: 500 * EPOCH }),
    new Promise((r) => setTimeout(r, 50)).then(() => node.rpc('sandbox_fast_forward', { delta_height: 10 })),
  ]);
  t.same(answers[0]!.body.result, {}, 'the first runs');
  // nearcore's handler wraps the client's refusal in Debug quotes (rpc-wire.md, sandbox_fast_forward).
  const message =
    'sandbox failed to fast forward due to: "Consecutive fast_forward requests cannot be made while a current one is going on."';
  // Its legacy `data` is RpcSandboxFastForwardError serialized, not its text (rpc-wire.md §2.3).
  const info = { error_message: message };
  t.same(answers[1]!.body.error, {
    name: 'INTERNAL_ERROR',
    cause: { name: 'INTERNAL_ERROR', info },
    code: -32000,
    message: 'Server error',
    data: { name: 'INTERNAL_ERROR', info },
  });
  t.equal(answers[1]!.status, 500);
  t.same((await node.rpc('sandbox_fast_forward', { delta_height: 10 })).body.result, {}, 'then the next');
});

t.test(
  'a stop ends a fast-forward after its block being made, answered, not logged as a failure',
  async (t) => {
    const home = tempDir(t);
    initHome(home, ['--epoch-length', String(EPOCH)]);
    const node = await startNode(home, ['--block-time', '200', '--sandbox']);
    await waitForHeight(node, 1);
    // Far more blocks than the moments before the stop make.
    const answer = node.rpc('sandbox_fast_forward', { delta_height: 20_000 * EPOCH });
    await new Promise((r) => setTimeout(r, 300));
    const stopped = node.stop();
    const r = await answer;
    t.equal(r.status, 500);
    t.same(r.body.error?.cause, { name: 'INTERNAL_ERROR', info: { error_message: 'the node is stopping' } });
    t.equal(await stopped, 0, 'a clean stop');
    // The store was not closed beneath a block being made: nothing failed, so nothing says so.
    t.notMatch(node.logs(), /"level":50/, node.logs());
    t.notMatch(node.logs(), /store is closed/);
    const again = await startNode(home, ['--block-time', '200', '--sandbox']);
    t.teardown(() => again.stop());
    t.equal(again.proc.exitCode, null, 'and it starts again on what it left');
  },
);

t.test('a fast-forward is bounded by the blocks it makes, and refused on epochs of 3 or less', async (t) => {
  for (const [length, delta, refused] of [
    [EPOCH, 100_000 * (EPOCH / 4) + 1, /above the maximum of 500000 per call/],
    [
      3,
      5,
      /^\{"name":"INTERNAL_ERROR","info":\{"error_message":"sandbox failed to fast forward due to: \\"Unsupported: fast_forward with an epoch length of 3 or less\\""\}\}$/,
    ],
  ] as const) {
    const home = tempDir(t);
    initHome(home, ['--epoch-length', String(length)]);
    const node = await startNode(home, ['--block-time', '200', '--sandbox']);
    t.teardown(() => node.stop());
    await waitForHeight(node, 1);
    const r = await node.rpc('sandbox_fast_forward', { delta_height: delta });
    t.match(JSON.stringify(r.body.error?.data), refused, `epoch length ${length}, delta ${delta}`);
  }
});
