// INCLUDED as nearcore answers it: nearcore makes the chunks of block H+1 when it accepts block H and
// stores their transactions then, and its view client answers a transaction it holds without an
// outcome as `{"final_execution_status":"INCLUDED"}` (view_client_actor.rs, get_tx_status). So
// send_tx and tx at INCLUDED answer once the chunks take the transaction, before its block runs it;
// the same transaction's outcome comes with its block.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { actions as A } from 'near-api-js';
import t from 'tap';
import { initHome, readKeyFile, startNode, waitForHeight } from './helpers/node.js';
import { signFromValidator } from './helpers/signed_tx.js';
import { tempDir } from './helpers/tmp.js';

t.test('a transaction in a chunk answers INCLUDED with no outcome until its block runs it', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const key = readKeyFile(home);
  // Blocks far apart, so every request below lands between the chunks and their block.
  const node = await startNode(home, ['--block-time', '3000']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 1);
  const { hash, base64: signed } = await signFromValidator(node, key, 'near', [A.transfer(1n)]);
  const included = { final_execution_status: 'INCLUDED' };

  const sent = await node.rpc('send_tx', { signed_tx_base64: signed, wait_until: 'INCLUDED' });
  t.same(sent.body, { jsonrpc: '2.0', id: 'dontcare', result: included }, 'send_tx at INCLUDED');
  const head = (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body
    .result!.header.height;
  const byHash = { tx_hash: hash, sender_account_id: 'test.near' };
  t.same((await node.rpc('tx', { ...byHash, wait_until: 'NONE' })).body.result, included, 'tx at NONE');
  t.same((await node.rpc('tx', { ...byHash, wait_until: 'INCLUDED' })).body.result, included);
  t.same(
    (await node.rpc('tx', { signed_tx_base64: signed, wait_until: 'INCLUDED' })).body.result,
    included,
    'tx by the signed transaction',
  );
  t.same(
    (await node.rpc('EXPERIMENTAL_tx_status', { ...byHash, wait_until: 'INCLUDED' })).body.result,
    included,
    'EXPERIMENTAL_tx_status',
  );
  // Sent again while in the chunk: known, so not refused as a nonce already pending.
  t.same(
    (await node.rpc('send_tx', { signed_tx_base64: signed, wait_until: 'INCLUDED' })).body.result,
    included,
  );
  const now = (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body
    .result!.header.height;
  t.equal(now, head, 'all of it before the next block');

  const executed = await node.rpc<{
    final_execution_status: string;
    status: unknown;
    transaction_outcome: { block_hash: string };
  }>('tx', { ...byHash, wait_until: 'EXECUTED_OPTIMISTIC' });
  t.equal(executed.body.result?.final_execution_status, 'EXECUTED_OPTIMISTIC');
  t.same(executed.body.result?.status, { SuccessValue: '' });
  const block = await node.rpc<{ header: { height: number } }>('block', {
    block_id: executed.body.result!.transaction_outcome.block_hash,
  });
  t.equal(block.body.result?.header.height, head + 1, 'run by the block after the one it arrived after');
  const later = await node.rpc<{ final_execution_status: string; transaction_outcome?: unknown }>('tx', {
    ...byHash,
    wait_until: 'INCLUDED',
  });
  t.ok(later.body.result?.transaction_outcome, 'with its outcome once run');
});

t.test('a transaction its chunk drops is waited for to the polling timeout, signed or by hash', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const cfgPath = join(home, 'config.json');
  const cfg = JSON.parse(readFileSync(cfgPath, 'utf8'));
  cfg.rpc.polling_config.polling_timeout = { secs: 2, nanos: 0 };
  writeFileSync(cfgPath, JSON.stringify(cfg));
  const key = readKeyFile(home);
  const node = await startNode(home, ['--block-time', '500']);
  t.teardown(() => node.stop());
  await waitForHeight(node, 1);
  // Admission does not know the block a transaction will land in and skips nearcore's upper bound on
  // nonces (height × 10^6); making the chunk checks it and drops the transaction. nearcore's
  // tx_status_fetch never learns why: a signed transaction still passes admission's check, and one
  // asked for by hash is only looked up, so both wait until the polling timeout.
  const tx = await signFromValidator(node, key, 'near', [A.transfer(1n)], 10n ** 15n);
  const [signed, byHash] = await Promise.all([
    node.rpc('send_tx', { signed_tx_base64: tx.base64, wait_until: 'INCLUDED' }),
    node.rpc('tx', { tx_hash: tx.hash, sender_account_id: 'test.near', wait_until: 'INCLUDED' }),
  ]);
  for (const r of [signed, byHash]) {
    t.equal(r.status, 408);
    t.equal(r.body.error?.cause.name, 'TIMEOUT_ERROR');
  }
  const status = await node.rpc('tx', {
    tx_hash: tx.hash,
    sender_account_id: 'test.near',
    wait_until: 'NONE',
  });
  t.equal(status.body.error?.cause.name, 'UNKNOWN_TRANSACTION', 'in no chunk');
});

t.test(
  'a run transaction sent again answers its outcome until its block hash expires, then Expired',
  async (t) => {
    // nearcore's process_tx_internal checks the validity period before anything else: a resend is
    // known (its nonce is used, tx_exists answers) only while the block hash it names is valid.
    const home = tempDir(t);
    initHome(home);
    const genesisPath = join(home, 'genesis.json');
    const genesis = JSON.parse(readFileSync(genesisPath, 'utf8'));
    genesis.transaction_validity_period = 10;
    writeFileSync(genesisPath, JSON.stringify(genesis));
    const key = readKeyFile(home);
    const node = await startNode(home, ['--block-time', '50']);
    t.teardown(() => node.stop());
    await waitForHeight(node, 2);
    const { hash, base64: signed } = await signFromValidator(node, key, 'near', [A.transfer(1n)]);
    const first = await node.rpc<{ transaction: { hash: string } }>('send_tx', {
      signed_tx_base64: signed,
      wait_until: 'FINAL',
    });
    t.equal(first.body.result?.transaction.hash, hash, 'run');
    const again = await node.rpc<{ transaction: { hash: string } }>('send_tx', {
      signed_tx_base64: signed,
      wait_until: 'FINAL',
    });
    t.equal(again.body.result?.transaction.hash, hash, 'sent again at once: its outcome');

    // The block the transaction names is the head it was signed at, at most this one.
    const named = (await node.rpc<{ header: { height: number } }>('block', { finality: 'optimistic' })).body
      .result!.header.height;
    await waitForHeight(node, named + 12);
    for (const method of ['send_tx', 'broadcast_tx_commit']) {
      const late = await node.rpc(
        method,
        method === 'send_tx' ? { signed_tx_base64: signed, wait_until: 'FINAL' } : [signed],
      );
      t.equal(late.status, 200, method);
      t.same(
        late.body.error?.data,
        { TxExecutionError: { InvalidTxError: 'Expired' } },
        `${method}: Expired`,
      );
    }
    const status = await node.rpc<{ transaction: { hash: string } }>('tx', {
      signed_tx_base64: signed,
      wait_until: 'FINAL',
    });
    t.equal(status.body.result?.transaction.hash, hash, 'tx by the signed transaction still finds it');
  },
);
