// A real 4-shard node with short epochs, read by the independent light client in helpers/: the chain
// of light-client blocks from genesis validates across several epochs, and execution proofs of a
// transaction, a local receipt and a cross-shard receipt verify against the head's block merkle root.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import bs58 from 'bs58';
import { actions as A, Account, JsonRpcProvider, type KeyPairString } from 'near-api-js';
import t from 'tap';
import {
  blockHash,
  type ExecutionProof,
  genesisTrust,
  type LightClientBlock,
  type LightClientState,
  validateExecutionProof,
  validateLightClientBlock,
} from './helpers/light_client.js';
import { initHome, readKeyFile, startNode, waitForHeight } from './helpers/node.js';
import { UNKNOWN_BLOCK_AS_DATA } from './helpers/rpc_errors.js';
import { tempDir } from './helpers/tmp.js';

const EPOCH = 6;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

t.test('light client blocks and execution proofs from a 4-shard node', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--shards', '4', '--epoch-length', String(EPOCH)]);
  const key = readKeyFile(home);
  const node = await startNode(home, ['--block-time', '50', '--archive']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 3);
  const provider = new JsonRpcProvider({ url: node.url });
  const root = new Account('test.near', provider, key.secret_key as KeyPairString);

  // The shard of an account, from the shard layout the node reports.
  const pc = await node.rpc<{ shard_layout: Record<string, { boundary_accounts: string[] }> }>(
    'EXPERIMENTAL_protocol_config',
    { finality: 'final' },
  );
  const layout = Object.values(pc.body.result!.shard_layout)[0]!;
  const shardOf = (a: string) => layout.boundary_accounts.filter((b) => b <= a).length;
  const far = ['0', '5', '9', 'a', 'f']
    .map((c) => c.repeat(64))
    .find((a) => shardOf(a) !== shardOf('test.near'));
  t.ok(far, 'an implicit account on another shard');

  const local = await root.signAndSendTransaction({ receiverId: 'test.near', actions: [A.transfer(1n)] });
  const cross = await root.signAndSendTransaction({ receiverId: far!, actions: [A.transfer(10n ** 24n)] });
  const localReceipt = local.receipts_outcome[0]!;
  const crossReceipt = cross.receipts_outcome[0]!;

  // A proof needs a light client head above the block that carries the outcome's root (the one
  // after the outcome's own). The head is the chain head's last final block (two behind), moved
  // back up to two more so the two blocks after it stay in its epoch: eight blocks past the last
  // outcome keep it above the carrier whatever the epoch boundary. On a loaded machine sending can
  // take as long as dozens of 50 ms blocks, so the wait is measured from the outcomes, not assumed
  // from the start.
  const heightOf = async (hash: string) =>
    (await node.rpc<{ header: { height: number } }>('block', { block_id: hash })).body.result!.header.height;
  const outcomeHeights = await Promise.all(
    [local.transaction_outcome, localReceipt, crossReceipt].map((o) => heightOf(o.block_hash)),
  );
  await waitForHeight(node, Math.max(5 * EPOCH + 6, Math.max(...outcomeHeights) + 8), 60_000);

  // Trust anchor: genesis and its validators.
  const genesis = await node.rpc<{ header: Record<string, unknown> }>('block', {
    sync_checkpoint: 'genesis',
  });
  const g = genesis.body.result!.header;
  const gc = await node.rpc<{ validators: { account_id: string; public_key: string; amount: string }[] }>(
    'EXPERIMENTAL_genesis_config',
    {},
  );
  const state = genesisTrust(g, gc.body.result!.validators);
  const genesisBps = state.epochBlockProducers.get(String(g.epoch_id))!;

  let last = String(g.hash);
  const epochs = new Set<string>();
  const blocks: LightClientBlock[] = [];
  for (let i = 0; i < 100; i++) {
    const r = await node.rpc<LightClientBlock | Record<string, never>>('next_light_client_block', {
      last_block_hash: last,
    });
    const b = r.body.result;
    if (b === undefined) {
      t.fail('next_light_client_block answers', { error: r.body.error });
      break;
    }
    if (!('inner_lite' in b)) break;
    t.doesNotThrow(() => validateLightClientBlock(state, b), `light client block at ${b.inner_lite.height}`);
    blocks.push(b);
    epochs.add(b.inner_lite.epoch_id);
    last = bs58.encode(blockHash(b));
  }
  t.ok(epochs.size >= 4, `light client blocks span ${epochs.size} epochs`);
  // nearcore's LightClientBlockView declares its fields in this order, and serde writes them so.
  t.same(
    Object.keys(blocks[0]!),
    [
      'prev_block_hash',
      'next_block_inner_hash',
      'inner_lite',
      'inner_rest_hash',
      'next_bps',
      'approvals_after_next',
    ],
    'the block view’s fields in nearcore’s order',
  );
  const head = blocks[blocks.length - 1]!;
  // The block the light client computed is the node's block at that height.
  const same = await node.rpc<{ header: { hash: string } }>('block', { block_id: head.inner_lite.height });
  t.equal(same.body.result!.header.hash, last, 'the light client head is the canonical block');
  // Blocks keep coming: asked again, the node answers {} or a later block that also validates.
  const again = await node.rpc<LightClientBlock | Record<string, never>>('next_light_client_block', {
    last_block_hash: last,
  });
  const later = again.body.result!;
  if ('inner_lite' in later) {
    t.doesNotThrow(() => validateLightClientBlock(structuredClone(state), later), 'a later block validates');
  } else t.same(later, {}, 'an up-to-date client gets {}');

  // Tampered blocks are rejected.
  const second = blocks[1]!;
  const fresh = (): LightClientState => ({
    head: clone(blocks[0]!),
    epochBlockProducers: new Map([
      [String(g.epoch_id), genesisBps],
      [blocks[0]!.inner_lite.next_epoch_id, blocks[0]!.next_bps!],
    ]),
  });
  t.doesNotThrow(() => validateLightClientBlock(fresh(), clone(second)), 'the second block validates alone');
  const badBlocks: [string, (b: LightClientBlock) => void][] = [
    [
      'height',
      (b) => {
        b.inner_lite.height++;
      },
    ],
    [
      'outcome_root',
      (b) => {
        b.inner_lite.outcome_root = b.inner_lite.prev_state_root;
      },
    ],
    [
      'next_block_inner_hash',
      (b) => {
        b.next_block_inner_hash = b.inner_rest_hash;
      },
    ],
    [
      'no approvals',
      (b) => {
        b.approvals_after_next = [null];
      },
    ],
    [
      'next_bps stake',
      (b) => {
        b.next_bps![0]!.stake = `${b.next_bps![0]!.stake}0`;
      },
    ],
  ];
  for (const [what, tamper] of badBlocks) {
    const b = clone(second);
    tamper(b);
    t.throws(
      () => validateLightClientBlock(fresh(), b),
      { name: 'LightClientError' },
      `tampered ${what} rejected`,
    );
  }

  // Execution proofs against the light client head.
  const root32 = bs58.decode(head.inner_lite.block_merkle_root);
  const proof = async (params: Record<string, string>) =>
    node.rpc<ExecutionProof>('EXPERIMENTAL_light_client_proof', { ...params, light_client_head: last });
  // Each with the outcome as the transaction's own answer gave it.
  const cases: [string, Record<string, string>, string, unknown][] = [
    [
      'transaction',
      { type: 'transaction', transaction_hash: local.transaction.hash, sender_id: 'test.near' },
      local.transaction.hash,
      local.transaction_outcome,
    ],
    [
      'local receipt',
      { type: 'receipt', receipt_id: localReceipt.id, receiver_id: 'test.near' },
      localReceipt.id,
      localReceipt,
    ],
    [
      'cross-shard receipt',
      { type: 'receipt', receipt_id: crossReceipt.id, receiver_id: far! },
      crossReceipt.id,
      crossReceipt,
    ],
  ];
  for (const [what, params, id, answered] of cases) {
    const r = await proof(params);
    const p = r.body.result!;
    t.ok(p, `${what}: a proof`, { error: r.body.error });
    if (!p) continue;
    t.equal(p.outcome_proof.id, id, `${what}: the outcome asked for`);
    t.equal(
      p.outcome_proof.block_hash,
      bs58.encode(blockHash(p.block_header_lite)),
      `${what}: carrier block`,
    );
    t.doesNotThrow(() => validateExecutionProof(p, root32), `${what}: proof verifies`);
    // The transaction's answer carries the same outcome and proof (their hashes encoded apart). Its
    // block_hash is the block that executed the outcome; the proof names the carrier, as nearcore's.
    const { block_hash: _carrier, ...proved } = p.outcome_proof;
    const { block_hash: executedIn, ...fromTx } = answered as ExecutionProof['outcome_proof'];
    t.same(fromTx, proved, `${what}: the answer's outcome and proof`);
    t.ok(
      (await heightOf(executedIn)) < p.block_header_lite.inner_lite.height,
      `${what}: executed before its carrier`,
    );
    const fromAnswer = { ...clone(p), outcome_proof: clone(answered) as ExecutionProof['outcome_proof'] };
    t.doesNotThrow(() => validateExecutionProof(fromAnswer, root32), `${what}: the answer's proof verifies`);
    const bad = clone(p);
    bad.outcome_proof.outcome.gas_burnt += 1;
    t.throws(
      () => validateExecutionProof(bad, root32),
      { name: 'LightClientError' },
      `${what}: tampered rejected`,
    );
  }
  const legacy = await node.rpc('light_client_proof', { ...cases[0]![1], light_client_head: last });
  t.ok(legacy.body.result, 'light_client_proof answers as its EXPERIMENTAL_ name');

  // nearcore's errors.
  const unknownId = bs58.encode(new Uint8Array(32).fill(7));
  const unknown = await proof({ type: 'transaction', transaction_hash: unknownId, sender_id: 'test.near' });
  t.equal(unknown.body.error?.cause.name, 'UNKNOWN_TRANSACTION_OR_RECEIPT');
  t.same(unknown.body.error?.cause.info, { transaction_or_receipt_id: unknownId });
  const badHead = await node.rpc('light_client_proof', { ...cases[0]![1], light_client_head: unknownId });
  t.equal(badHead.body.error?.cause.name, 'UNKNOWN_BLOCK');
  t.same(badHead.body.error?.cause.info, {}, 'UNKNOWN_BLOCK carries no info, as in nearcore');
  // With 50 ms blocks the optimistic tip can become final before the proof request reaches the
  // node (two blocks later). An answer is right only then, so the request is made again with the
  // new tip until one is refused; any answer given must be for a head that was final by then.
  type Header = { header: { hash: string; height: number } };
  let notFinal: Awaited<ReturnType<typeof node.rpc>> | undefined;
  for (let attempt = 0; attempt < 20; attempt++) {
    const tip = (await node.rpc<Header>('block', { finality: 'optimistic' })).body.result!.header;
    notFinal = await node.rpc('light_client_proof', { ...cases[0]![1], light_client_head: tip.hash });
    if (notFinal.body.error) break;
    const final = (await node.rpc<Header>('block', { finality: 'final' })).body.result!.header;
    t.ok(final.height >= tip.height, `answered for #${tip.height} only once it was final`);
  }
  t.equal(notFinal?.body.error?.cause.name, 'INTERNAL_ERROR', 'a head that is not final is refused');
  const unknownLast = await node.rpc('next_light_client_block', { last_block_hash: unknownId });
  t.equal(unknownLast.body.error?.cause.name, 'UNKNOWN_BLOCK');
});

t.test('a GC node proves outcomes of the blocks it keeps against a later final head', async (t) => {
  const home = tempDir(t);
  initHome(home, ['--shards', '4', '--epoch-length', String(EPOCH)]);
  const key = readKeyFile(home);
  const node = await startNode(home, ['--block-time', '40']);
  t.teardown(() => node.stop());
  const status = async () =>
    (await node.rpc<{ sync_info: { earliest_block_height: number } }>('status', [])).body.result!.sync_info;
  // Wait until garbage collection has removed the first blocks.
  for (let i = 0; i < 600 && (await status()).earliest_block_height <= 1; i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  t.ok((await status()).earliest_block_height > 1, 'old blocks are collected');

  const provider = new JsonRpcProvider({ url: node.url });
  const root = new Account('test.near', provider, key.secret_key as KeyPairString);
  const sent = await root.signAndSendTransaction({ receiverId: 'test.near', actions: [A.transfer(1n)] });
  const height = (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body
    .result!.header.height;
  await waitForHeight(node, height + 4);
  const final = await node.rpc<{ header: { hash: string; height: number; block_merkle_root: string } }>(
    'block',
    {
      finality: 'final',
    },
  );
  const head = final.body.result!.header;
  const r = await node.rpc<ExecutionProof>('light_client_proof', {
    type: 'transaction',
    transaction_hash: sent.transaction.hash,
    sender_id: 'test.near',
    light_client_head: head.hash,
  });
  t.ok(r.body.result, 'a proof', { error: r.body.error });
  t.doesNotThrow(
    () => validateExecutionProof(r.body.result!, bs58.decode(head.block_merkle_root)),
    'the proof verifies against the head block merkle root',
  );
  const next = await node.rpc<LightClientBlock | Record<string, never>>('next_light_client_block', {
    last_block_hash: head.hash,
  });
  const b = next.body.result!;
  t.ok(!('inner_lite' in b) || b.inner_lite.height > head.height, 'a later light-client block or {}');
});

t.test('at genesis the next light client block is UNKNOWN_BLOCK, as nearcore answers', async (t) => {
  // The genesis block's last final block is the zero hash, which nearcore's create_light_client_block
  // reads as a header: DBNotFoundErr, turned into UnknownBlock (chain/client-primitives/src/types.rs)
  // and answered with the cause itself as legacy data, its message not serialized.
  const home = tempDir(t);
  initHome(home, []);
  const node = await startNode(home, ['--block-time', '3600000']);
  t.teardown(() => node.stop());
  const genesis = (
    await node.rpc<{ header: { hash: string; height: number } }>('block', { finality: 'optimistic' })
  ).body.result!.header;
  t.equal(genesis.height, 0, 'the head is the genesis block');
  for (const params of [{ last_block_hash: genesis.hash }, [genesis.hash]]) {
    const r = await node.rpc('next_light_client_block', params);
    t.equal(r.status, 200, JSON.stringify(params));
    t.same(r.body.error, UNKNOWN_BLOCK_AS_DATA, JSON.stringify(params));
  }
});

t.test('with two block producers, approvals hold a slot for each, null where one did not sign', async (t) => {
  // nearcore's producer lists a slot per epoch approver (get_epoch_block_approvers_ordered), null for
  // each whose approval it lacks; a bridge's light client refuses a list shorter than next_bps.
  const home = tempDir(t);
  initHome(home, ['--epoch-length', String(EPOCH)]);
  const path = join(home, 'genesis.json');
  const genesis = JSON.parse(readFileSync(path, 'utf8'));
  const stake = 5n * 10n ** 30n;
  genesis.validators.push({
    account_id: 'near',
    public_key: 'ed25519:379SeEwFgHs6mXtmf1iJ7EpEjcYZxieFfgDEf33hUJjU',
    amount: String(stake),
  });
  const near = genesis.records.find(
    (r: { Account?: { account_id: string } }) => r.Account?.account_id === 'near',
  ).Account.account;
  near.locked = String(stake);
  genesis.total_supply = String(BigInt(genesis.total_supply) + stake);
  writeFileSync(path, JSON.stringify(genesis));
  const node = await startNode(home, ['--block-time', '50']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 3 * EPOCH);

  const header = (
    await node.rpc<{ header: { approvals: (string | null)[] } }>('block', { finality: 'final' })
  ).body.result!.header;
  t.equal(header.approvals.length, 2, 'a slot for each block producer');
  t.match(header.approvals[0], /^ed25519:/, "test.near's approval, first as in next_bps");
  t.equal(header.approvals[1], null, "near's slot: no approval");

  const g = (await node.rpc<{ header: Record<string, unknown> }>('block', { block_id: 0 })).body.result!
    .header;
  const state = genesisTrust(g, genesis.validators);
  let last = String(g.hash);
  let validated = 0;
  for (let i = 0; i < 20; i++) {
    const b = (await node.rpc<LightClientBlock | Record<string, never>>('next_light_client_block', [last]))
      .body.result;
    if (!b || !('inner_lite' in b)) break;
    t.same(
      b.approvals_after_next.map((a) => a !== null),
      [true, false],
      `approvals_after_next at ${b.inner_lite.height}`,
    );
    t.doesNotThrow(() => validateLightClientBlock(state, b), `light client block at ${b.inner_lite.height}`);
    validated++;
    last = bs58.encode(blockHash(b));
  }
  t.ok(validated >= 2, `${validated} light client blocks validated`);
});
