// Write methods on a follower go to --upstream-rpc, and the upstream's answer comes back as it is.

import { sign } from 'node:crypto';
import { join } from 'node:path';
import {
  base58Decode,
  base58Encode,
  encodeSignedTransaction,
  parsePublicKey,
  type Transaction,
  toBase64,
  transactionHash,
} from '@nearlite/primitives';
import t from 'tap';
import { cli, initHome, keyFilePrivateKey, readKeyFile, startNode, waitForHeight } from './helpers/node.js';
import { syntheticChain, writeLake } from './helpers/synthetic_chain.js';
import { tempDir } from './helpers/tmp.js';

// near-api-js' signed_transaction1 test vector (test.near → whatever.near, Transfer 1 yocto).
const SIGNED_TX = Buffer.from(
  '09000000746573742e6e65617200917b3d268d4b58f7fec1b150bd68d69be3ee5d4cc39855e341538465bb77860d01000000000000000d00000077686174657665722e6e6561720fa473fd26901df296be6adc4cc4df34d040efa2435224b6986910e630c2fef601000000030100000000000000000000000000000000969a83332186ee9755e4839325525806e189a3d2d2bb4b4760e94443e97e1c4f22deeef0059a8e9713100eda6e19144da7e8a0ef7e539b20708ba1d8d021bd01',
  'hex',
).toString('base64');

t.test('send_tx through a follower is answered by its upstream', async (t) => {
  const dir = tempDir(t);
  initHome(join(dir, 'producer'));
  const producer = await startNode(join(dir, 'producer'), ['--block-time', '200']);
  t.teardown(() => producer.stop());
  initHome(join(dir, 'follower'));
  writeLake(join(dir, 'blocks'), syntheticChain(2));
  const follower = await startNode(join(dir, 'follower'), [
    '--follow',
    `file:${join(dir, 'blocks')}`,
    '--upstream-rpc',
    producer.url,
  ]);
  t.teardown(() => follower.stop());

  for (const [method, params] of [
    ['send_tx', { signed_tx_base64: SIGNED_TX, wait_until: 'INCLUDED' }],
    ['broadcast_tx_commit', [SIGNED_TX]],
  ] as const) {
    const direct = await producer.rpc(method, params);
    const forwarded = await follower.rpc(method, params);
    t.ok(direct.body.error, `${method}: the producer refuses this transaction (its block hash is unknown)`);
    t.equal(forwarded.status, direct.status, `${method}: same HTTP status`);
    t.same(forwarded.body.error, direct.body.error, `${method}: the upstream's error, as it is`);
  }
  // A valid transfer signed with the producer's validator key: the upstream's result, byte for byte
  // as JSON, is what the producer itself reports for that transaction.
  const key = readKeyFile(join(dir, 'producer'));
  const accessKey = await producer.rpc<{ nonce: number }>('query', {
    request_type: 'view_access_key',
    account_id: key.account_id,
    public_key: key.public_key,
    finality: 'final',
  });
  const head = await producer.rpc<{ header: { hash: string } }>('block', { finality: 'final' });
  const tx: Transaction = {
    signerId: key.account_id,
    publicKey: parsePublicKey(key.public_key),
    nonce: BigInt(accessKey.body.result!.nonce) + 1n,
    receiverId: key.account_id,
    blockHash: base58Decode(head.body.result!.header.hash),
    actions: [{ type: 'Transfer', deposit: 1n }],
  };
  const hash = transactionHash(tx);
  const privateKey = keyFilePrivateKey(key);
  const signature = { keyType: 0 as const, data: new Uint8Array(sign(null, hash, privateKey)) };
  const signed = toBase64(encodeSignedTransaction(tx, signature));
  const sent = await follower.rpc<{ transaction: { hash: string } }>('send_tx', {
    signed_tx_base64: signed,
    wait_until: 'FINAL',
  });
  t.equal(sent.body.result?.transaction.hash, base58Encode(hash), 'the upstream ran it');
  const status = await producer.rpc('tx', { tx_hash: base58Encode(hash), sender_account_id: key.account_id });
  t.same(sent.body.result, status.body.result, "the forwarded answer is the producer's own");
  // A receipt of a chain this follower does not follow: not in its history, so the upstream answers.
  const receiptId = (status.body.result as { receipts_outcome: { id: string }[] }).receipts_outcome[0]!.id;
  const origin = await follower.rpc('EXPERIMENTAL_receipt_to_tx', { receipt_id: receiptId });
  t.same(origin.body.result, { transaction_hash: base58Encode(hash), sender_account_id: key.account_id });
  const bad = await follower.rpc('send_tx', { signed_tx_base64: 'AAAA', wait_until: 'NONE' });
  t.equal(bad.body.error?.cause.name, 'PARSE_ERROR', 'undecodable bytes are refused before forwarding');
});

t.test(
  "the validator views of a chain this genesis' validators did not make come from upstream",
  async (t) => {
    const dir = tempDir(t);
    initHome(join(dir, 'producer'));
    const producer = await startNode(join(dir, 'producer'), ['--block-time', '200']);
    t.teardown(() => producer.stop());
    // The stream is another network's: its blocks name other block producers (next_bp_hash), and it
    // carries neither who they are nor what each produced.
    initHome(join(dir, 'follower'));
    // A block of protocol 73, as mainnet ran in 2025.
    const chain = syntheticChain(2, { protocolVersion: 73 });
    writeLake(join(dir, 'blocks'), chain);
    const follow = ['--follow', `file:${join(dir, 'blocks')}`];
    const follower = await startNode(join(dir, 'follower'), [...follow, '--upstream-rpc', producer.url]);
    t.teardown(() => follower.stop());
    const key = readKeyFile(join(dir, 'producer'));
    const last = chain[chain.length - 1]!.block.header.height;
    await waitForHeight(follower, last);

    const validators = await follower.rpc<{ current_validators: { public_key: string }[] }>('validators', [
      null,
    ]);
    t.equal(
      validators.body.result?.current_validators[0]?.public_key,
      key.public_key,
      "the upstream's validators",
    );
    const ordered = await producer.rpc('EXPERIMENTAL_validators_ordered', { block_id: null });
    t.ok(ordered.body.result, 'the producer answers EXPERIMENTAL_validators_ordered');
    t.same(
      (await follower.rpc('EXPERIMENTAL_validators_ordered', { block_id: null })).body.result,
      ordered.body.result,
      "EXPERIMENTAL_validators_ordered: the upstream's answer",
    );
    // The upstream's head moves on between two asks: its window starts at its head then.
    type Windows = { start: number; end: number }[];
    const before = await producer.rpc<Windows>('maintenance_windows', { account_id: 'someone.test.near' });
    const relayed = await follower.rpc<Windows>('maintenance_windows', { account_id: 'someone.test.near' });
    const after = await producer.rpc<Windows>('maintenance_windows', { account_id: 'someone.test.near' });
    const [b, w, a] = [before, relayed, after].map((r) => r.body.result![0]!);
    t.ok(w!.start >= b!.start && w!.start <= a!.start, "maintenance_windows: the upstream's head");
    t.ok(w!.end === b!.end || w!.end === a!.end, "maintenance_windows: the upstream's epoch");

    // Without an upstream there is nothing to answer with: nearcore's own refusals.
    initHome(join(dir, 'alone'));
    const alone = await startNode(join(dir, 'alone'), follow);
    t.teardown(() => alone.stop());
    await waitForHeight(alone, last);
    for (const [method, params] of [
      ['validators', [null]],
      ['EXPERIMENTAL_validators_ordered', {}],
    ] as const) {
      const r = await alone.rpc(method, params);
      t.same(r.body.error?.cause, { name: 'VALIDATOR_INFO_UNAVAILABLE' }, method);
      t.equal(r.body.error?.data, 'Validator info unavailable');
    }
    const origin = await alone.rpc('EXPERIMENTAL_receipt_to_tx', {
      receipt_id: '11111111111111111111111111111111',
    });
    t.same(
      origin.body.error?.cause,
      { name: 'UNKNOWN_RECEIPT', info: { receipt_id: '11111111111111111111111111111111' } },
      'EXPERIMENTAL_receipt_to_tx: no receipt of that id in the history',
    );
    // The stream's blocks run another protocol version than this genesis: its parameters are the
    // upstream's to give.
    const block = await alone.rpc<{ header: { hash: string; latest_protocol_version: number } }>('block', {
      block_id: last,
    });
    const config = await alone.rpc('EXPERIMENTAL_protocol_config', { block_id: last });
    t.equal(config.status, 500);
    t.match(
      config.body.error?.cause?.info?.error_message,
      `runs protocol version ${block.body.result!.header.latest_protocol_version}`,
    );
    const direct = await producer.rpc('EXPERIMENTAL_protocol_config', {
      block_id: block.body.result!.header.hash,
    });
    const forwarded = await follower.rpc('EXPERIMENTAL_protocol_config', { block_id: last });
    t.same(forwarded.body, direct.body, 'asked of the upstream by the block’s hash');
    // The congestion level of a chunk of protocol 73: with the limits that version has, or the
    // upstream's answer when there is one.
    const chunk = await alone.rpc<{ header: { chunk_hash: string } }>('chunk', {
      block_id: last,
      shard_id: 0,
    });
    const level = await alone.rpc('EXPERIMENTAL_congestion_level', { block_id: last, shard_id: 0 });
    t.same(level.body.result, { congestion_level: 0 }, "an idle shard under protocol 73's limits");
    const relayedLevel = await follower.rpc('EXPERIMENTAL_congestion_level', { block_id: last, shard_id: 0 });
    const directLevel = await producer.rpc('EXPERIMENTAL_congestion_level', {
      chunk_id: chunk.body.result!.header.chunk_hash,
    });
    t.same(relayedLevel.body, directLevel.body, 'asked of the upstream by the chunk’s hash');
    const windows = await alone.rpc('maintenance_windows', { account_id: 'test.near' });
    t.equal(windows.status, 500);
    t.match(windows.body.error?.cause?.info?.error_message, /--upstream-rpc/);
  },
);

t.test(
  'an upstream of another chain is refused at start; one that does not answer is warned of',
  async (t) => {
    const dir = tempDir(t);
    // A node of another network (its own chain id).
    const other = join(dir, 'other');
    const made = cli(['init', '--home', other, '--chain-id', 'other-chain']);
    t.equal(made.status, 0, made.stderr);
    const upstream = await startNode(other, ['--block-time', '200']);
    t.teardown(() => upstream.stop());
    initHome(join(dir, 'follower'));
    writeLake(join(dir, 'blocks'), syntheticChain(2));
    const follow = ['--follow', `file:${join(dir, 'blocks')}`];
    await t.rejects(
      startNode(join(dir, 'follower'), [...follow, '--upstream-rpc', upstream.url]),
      new RegExp(
        `--upstream-rpc ${upstream.url} serves chain "other-chain", and this node serves "test-chain": its answers would be another chain's`,
      ),
    );
    // Nothing listens there: the follower starts, says so, and forwarded calls fail until it answers.
    const follower = await startNode(join(dir, 'follower'), [
      ...follow,
      '--upstream-rpc',
      'http://127.0.0.1:1',
    ]);
    t.teardown(() => follower.stop());
    t.match(follower.logs(), /--upstream-rpc http:\/\/127\.0\.0\.1:1 did not answer status/);
    const sent = await follower.rpc('send_tx', { signed_tx_base64: SIGNED_TX, wait_until: 'NONE' });
    t.equal(sent.status, 500);
    t.match(sent.body.error?.data, /the upstream RPC http:\/\/127\.0\.0\.1:1 is unreachable/);
    // Not a hash for a transaction nobody holds: the forward failed, and the client is told.
    const async = await follower.rpc('broadcast_tx_async', [SIGNED_TX]);
    t.equal(async.status, 500);
    t.match(async.body.error?.data, /the upstream RPC http:\/\/127\.0\.0\.1:1 is unreachable/);
  },
);
