// A follower of a nearlite producer, over the producer's neardata routes (`/v0/block/:h`), answers the
// read methods byte for byte as the producer does, for every height and a sample of accounts, keys,
// contract state and transactions.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Account, KeyPair, KeyPairSigner } from 'near-api-js';
import t from 'tap';
import { accountReads } from './helpers/account_reads.js';
import { compileContract } from './helpers/asc.js';
import { localChain } from './helpers/chain.js';
import { comparer } from './helpers/follow_compare.js';
import { cli, refused, startFollower, startNode, waitForHeight } from './helpers/node.js';

const NEAR = 10n ** 24n;

t.test('a follower of a nearlite producer answers as the producer', async (t) => {
  const chain = await localChain(t, { shards: 2, blockTimeMs: 80 });
  const { root, provider, node: producer } = chain;
  const aliceKey = KeyPair.fromRandom('ed25519');
  await root.createAccount({
    newAccountId: 'alice.test.near',
    publicKey: aliceKey.getPublicKey(),
    nearToTransfer: 10n * NEAR,
  });
  const alice = new Account('alice.test.near', provider, new KeyPairSigner(aliceKey));
  await alice.deployContract(await compileContract('counter'));
  await alice.callFunctionRaw({ contractId: 'alice.test.near', methodName: 'increment', args: {} });
  await root.transfer({ receiverId: 'alice.test.near', amount: NEAR });
  const extra = KeyPair.fromRandom('ed25519');
  await alice.addFullAccessKey(extra.getPublicKey());
  await alice.callFunctionRaw({ contractId: 'alice.test.near', methodName: 'increment', args: {} });
  // Accounts that use a global contract, one by its deployer's account and one by its hash: only
  // their views' global_contract_* fields say which contract they run.
  const code = await compileContract('counter');
  await root.deployGlobalContract(code, 'accountId');
  await root.deployGlobalContract(code, 'codeHash');
  for (const [id, contract] of [
    ['carol.test.near', { accountId: 'test.near' }],
    ['dave.test.near', { codeHash: createHash('sha256').update(code).digest() }],
  ] as const) {
    const key = KeyPair.fromRandom('ed25519');
    await root.createAccount({ newAccountId: id, publicKey: key.getPublicKey(), nearToTransfer: NEAR });
    await new Account(id, provider, new KeyPairSigner(key)).useGlobalContract(contract);
  }

  const follower = await startFollower(chain.home, producer.url);
  const followerHome = join(chain.home, 'follower');
  t.teardown(() => follower.stop());
  const { body: finalBlock } = await producer.rpc<{ header: { height: number; hash: string } }>('block', {
    finality: 'final',
  });
  const top = finalBlock.result!.header.height;
  await waitForHeight(follower, top, 60_000);

  const { same } = comparer(t, producer, [['follower', follower]]);
  const accounts = [
    'test.near',
    'alice.test.near',
    'carol.test.near',
    'dave.test.near',
    'near',
    'nobody.test.near',
  ];
  const txs: [string, string][] = [];
  for (let h = 0; h <= top; h++) {
    const block = await same('block', { block_id: h }, `#${h}`);
    if (!block.result) continue;
    await same('EXPERIMENTAL_changes_in_block', { block_id: h }, `#${h}`);
    await same('gas_price', [h], `#${h}`);
    await same('EXPERIMENTAL_validators_ordered', { block_id: h }, `#${h}`);
    for (const shard of [0, 1]) {
      await same('EXPERIMENTAL_congestion_level', { block_id: h, shard_id: shard }, `#${h}/${shard}`);
      const chunk = await same('chunk', { block_id: h, shard_id: shard }, `#${h}/${shard}`);
      for (const tx of (chunk.result?.transactions ?? []) as { hash: string; signer_id: string }[]) {
        txs.push([tx.hash, tx.signer_id]);
      }
    }
    for (const account_id of accounts)
      for (const r of accountReads(account_id, h)) await same(r.method, r.params, r.what);
    await same(
      'query',
      { request_type: 'view_state', account_id: 'alice.test.near', prefix_base64: '', block_id: h },
      `state #${h}`,
    );
    await same(
      'query',
      { request_type: 'view_code', account_id: 'alice.test.near', block_id: h },
      `code #${h}`,
    );
    await same(
      'query',
      {
        request_type: 'call_function',
        account_id: 'alice.test.near',
        method_name: 'get',
        args_base64: '',
        block_id: h,
      },
      `get #${h}`,
    );
    await same(
      'EXPERIMENTAL_changes',
      { changes_type: 'data_changes', account_ids: ['alice.test.near'], key_prefix_base64: '', block_id: h },
      `data #${h}`,
    );
    await same(
      'EXPERIMENTAL_changes',
      { changes_type: 'contract_code_changes', account_ids: ['alice.test.near'], block_id: h },
      `code changes #${h}`,
    );
  }
  t.ok(txs.length >= 6, `${txs.length} transactions compared`);
  // A view call on an account using a global contract: the producer runs it; the stream carries no
  // global contract code, and the follower says so rather than that the account has no code.
  for (const account_id of ['carol.test.near', 'dave.test.near']) {
    const call = {
      request_type: 'call_function',
      account_id,
      method_name: 'get',
      args_base64: '',
      finality: 'final',
    };
    t.ok(
      (await producer.rpc('query', call)).body.result,
      `the producer runs ${account_id}'s global contract`,
    );
    const viaFollower = await follower.rpc('query', call);
    t.match(
      viaFollower.body.error?.cause?.info,
      { error_message: /does not carry global contract code/ },
      `the follower cannot run ${account_id}'s`,
    );
  }
  // What the follower says of itself: its own head, its history's kind, its configuration.
  const storage = await follower.rpc<Record<string, unknown>>('EXPERIMENTAL_split_storage_info', {});
  const cursor = storage.body.result!.head_height as number;
  t.ok(cursor >= top, 'the head is the cursor');
  t.same(storage.body.result, {
    head_height: cursor,
    final_head_height: cursor,
    cold_head_height: null,
    hot_db_kind: 'RPC',
  });
  const config = await follower.rpc<Record<string, unknown>>('client_config', null);
  t.equal(config.body.result!.archive, false);
  t.equal(config.body.result!.chain_id, 'test-chain');
  const windows = await follower.rpc<unknown[]>('maintenance_windows', { account_id: 'test.near' });
  t.same(windows.body.result, [], 'the validator produces every block');
  const proof = await follower.rpc('EXPERIMENTAL_light_client_block_proof', {
    block_hash: finalBlock.result!.header.hash,
    light_client_head: finalBlock.result!.header.hash,
  });
  t.equal(proof.body.error?.cause?.name, 'INTERNAL_ERROR', 'no block merkle tree to prove with');
  for (const [hash, signer] of txs) {
    const st = await same(
      'EXPERIMENTAL_tx_status',
      { tx_hash: hash, sender_account_id: signer, wait_until: 'NONE' },
      hash,
    );
    for (const o of (st.result?.receipts_outcome ?? []) as { id: string }[]) {
      await same('EXPERIMENTAL_receipt', { receipt_id: o.id }, o.id);
      await same('EXPERIMENTAL_receipt_to_tx', { receipt_id: o.id }, `${o.id} to its transaction`);
    }
    // The transaction's own hash is no receipt's.
    await same('EXPERIMENTAL_receipt_to_tx', { receipt_id: hash }, `${hash} is not a receipt`);
  }
  // A follower keeps history, not a state trie: the state dump says so instead of writing anything.
  const dump = cli(['--home', followerHome, 'view-state', 'dump-state']);
  t.equal(dump.status, 1);
  t.match(dump.stderr, /holds a follower's history \(followed to #\d+\), which keeps no state trie/);

  // `inspect` reads a stopped follower's history as it reads a producer's chain.
  await follower.stop();
  const inspected = (args: string[]) => {
    const r = cli(['inspect', '--home', followerHome, ...args]);
    t.equal(r.status, 0, `inspect ${args.join(' ')}: ${r.stderr}`);
    return r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  };
  t.equal(inspected(['block', String(top)])[0]!.hash, finalBlock.result!.header.hash, 'inspect block');
  t.equal(inspected(['block', finalBlock.result!.header.hash])[0]!.height, top, 'inspect block by hash');
  const chunk = (
    await producer.rpc<{ header: { chunk_hash: string } }>('chunk', { block_id: top, shard_id: 1 })
  ).body.result!;
  t.equal(
    (inspected(['chunk', String(top), '1'])[0]!.header as { chunk_hash: string }).chunk_hash,
    chunk.header.chunk_hash,
  );
  for (const id of ['alice.test.near', 'test.near']) {
    const view = (
      await producer.rpc<Record<string, unknown>>('query', {
        request_type: 'view_account',
        account_id: id,
        block_id: top,
      })
    ).body.result!;
    const [acct] = inspected(['account', id, String(top)]);
    for (const field of ['amount', 'locked', 'code_hash', 'storage_usage'])
      t.equal(acct![field], view[field], `inspect account ${id}: ${field}`);
  }
  const state = (
    await producer.rpc<{ values: { key: string; value: string }[] }>('query', {
      request_type: 'view_state',
      account_id: 'alice.test.near',
      prefix_base64: '',
      block_id: top,
    })
  ).body.result!;
  t.ok(state.values.length > 0, 'the counter keeps state');
  t.same(inspected(['state', 'alice.test.near']), state.values, 'inspect state: every key and value');
  // A bad id or no account is said so, as on a producer's home, not answered empty.
  for (const [args, message] of [
    [['account', 'BAD..'], /'BAD\.\.' is not an account id/],
    [['state', 'BAD..'], /'BAD\.\.' is not an account id/],
    [['state', 'nobody.test.near'], /account nobody\.test\.near does not exist at #\d+/],
  ] as const)
    refused(t, ['inspect', '--home', followerHome, ...args], message, `inspect ${args.join(' ')}`);
  const [tx] = inspected(['tx', txs[0]![0]]);
  t.equal((tx!.transaction as { hash: string }).hash, txs[0]![0], 'inspect tx');
  t.ok(tx!.outcome, 'with its outcome');
  // And so can a tool, through @nearlite/follower (README, "Reading the store directly").
  const read = execFileSync(
    process.execPath,
    [join(import.meta.dirname, '..', 'examples', 'read-follower-home.mjs'), followerHome, 'alice.test.near'],
    { encoding: 'utf8' },
  );
  t.match(read, /^cursor #\d+ \w+, kept from #\d+/);
  t.match(read, /alice\.test\.near balance \d+ at the cursor, absent at the first block/);
  for (const { key, value } of state.values) t.match(read, `  ${key} = ${value}`, `contract state ${key}`);

  // Taken again with --archive, the GC history collects nothing from then on and stays a GC store,
  // as a producer's store does (nearcore's StoreOpener): hot_db_kind says the store's kind.
  const archived = await startNode(followerHome, ['--follow', producer.url, '--archive']);
  t.teardown(() => archived.stop());
  t.match(archived.logs(), /archive on a garbage-collected store: every block from here on is kept/);
  const kind = await archived.rpc<Record<string, unknown>>('EXPERIMENTAL_split_storage_info', {});
  t.equal(kind.body.result!.hot_db_kind, 'RPC', 'the store stays a GC store');
  const archivedConfig = await archived.rpc<Record<string, unknown>>('client_config', null);
  t.equal(archivedConfig.body.result!.archive, true, 'client_config gives the flag');
  t.equal(await archived.stop(), 0);
});
