// What a follower asks its upstream for. Global contract code: the stream carries none, so a follower
// started with --upstream-rpc asks its upstream for it, checks it, and answers view calls, view_code
// and the global code queries of accounts using global contracts byte for byte as the producer does,
// at every height — a contract its deployer replaced included. Proofs (the light-client methods, a
// state view with its proof): the upstream's answers.
import { createHash } from 'node:crypto';
import { base58Encode } from '@nearlite/primitives';
import { Account, KeyPair, KeyPairSigner } from 'near-api-js';
import t from 'tap';
import { compileContract } from './helpers/asc.js';
import { localChain } from './helpers/chain.js';
import { comparer } from './helpers/follow_compare.js';
import { startFollower, waitForHeight } from './helpers/node.js';

const NEAR = 10n ** 24n;

t.test('a follower with an upstream runs global contracts as the producer', async (t) => {
  const chain = await localChain(t, { shards: 2, blockTimeMs: 80, archive: true });
  const { root, provider, node: producer } = chain;
  const counter = await compileContract('counter');
  const echo = await compileContract('echo');
  const hashOf = (code: Uint8Array) => createHash('sha256').update(code).digest();
  await root.deployGlobalContract(counter, 'accountId');
  await root.deployGlobalContract(counter, 'codeHash');
  const users: [string, { accountId: string } | { codeHash: Uint8Array }][] = [
    ['carol.test.near', { accountId: 'test.near' }],
    ['dave.test.near', { codeHash: hashOf(counter) }],
  ];
  for (const [id, contract] of users) {
    const key = KeyPair.fromRandom('ed25519');
    await root.createAccount({ newAccountId: id, publicKey: key.getPublicKey(), nearToTransfer: NEAR });
    const user = new Account(id, provider, new KeyPairSigner(key));
    await user.useGlobalContract(contract);
    await user.callFunctionRaw({ contractId: id, methodName: 'increment', args: {} });
  }
  // The deployer replaces the code its account names: carol's calls run `echo` from then on.
  const replaced = await root.deployGlobalContract(echo, 'accountId');
  const head = async () =>
    (await producer.rpc<{ header: { height: number } }>('block', { finality: 'final' })).body.result!.header
      .height;
  await waitForHeight(producer, (await head()) + 8);
  const top = await head();

  const follower = await startFollower(chain.home, producer.url, ['--upstream-rpc', producer.url]);
  t.teardown(() => follower.stop());
  await waitForHeight(follower, top, 60_000);

  const { same } = comparer(t, producer, [['follower', follower]]);
  const codes = new Map<string, Set<string>>();
  let ran = 0;
  for (let h = 1; h <= top; h++) {
    for (const [account_id] of users) {
      const call = await same(
        'query',
        { request_type: 'call_function', account_id, method_name: 'get', args_base64: '', block_id: h },
        `${account_id} get #${h}`,
      );
      if (call.result) ran++;
      const code = await same(
        'query',
        { request_type: 'view_code', account_id, block_id: h },
        `${account_id} code #${h}`,
      );
      if (code.result) {
        const seen = codes.get(account_id) ?? new Set();
        seen.add(code.result.hash as string);
        codes.set(account_id, seen);
      }
    }
    await same(
      'query',
      { request_type: 'view_global_contract_code_by_account_id', account_id: 'test.near', block_id: h },
      `global code of test.near #${h}`,
    );
    await same(
      'query',
      {
        request_type: 'view_global_contract_code',
        code_hash: base58Encode(hashOf(counter)),
        block_id: h,
      },
      `global code by hash #${h}`,
    );
  }
  t.ok(ran >= 4, `${ran} view calls ran a global contract`);
  t.same(
    [...(codes.get('carol.test.near') ?? [])].sort(),
    [base58Encode(hashOf(counter)), base58Encode(hashOf(echo))].sort(),
    "carol's code is the deployer's as of each height: counter, then echo",
  );
  t.same([...(codes.get('dave.test.near') ?? [])], [base58Encode(hashOf(counter))]);

  // Proofs need the block merkle tree, approvals and trie nodes, which the stream does not carry:
  // the follower gives its upstream's answers, as NEAR's read-rpc proxies what it does not serve.
  const light_client_head = (await producer.rpc<{ header: { hash: string } }>('block', { block_id: top }))
    .body.result!.header.hash;
  const tx = replaced.transaction as { hash: string; signer_id: string };
  const receipt = replaced.receipts_outcome[0]!;
  const proof = await same(
    'EXPERIMENTAL_light_client_proof',
    { type: 'transaction', transaction_hash: tx.hash, sender_id: tx.signer_id, light_client_head },
    'of a transaction',
  );
  t.ok(proof.result?.outcome_proof, 'a proof, not an error');
  await same(
    'EXPERIMENTAL_light_client_proof',
    { type: 'receipt', receipt_id: receipt.id, receiver_id: receipt.outcome.executor_id, light_client_head },
    'of a receipt',
  );
  const early = (await producer.rpc<{ header: { hash: string } }>('block', { block_id: 3 })).body.result!
    .header.hash;
  // Its answer is the upstream's latest final block, which moves between two requests: the follower's
  // must be the light client block of the producer's block at the height it names.
  type LightClientBlock = {
    prev_block_hash: string;
    inner_lite: { height: number; prev_state_root: string; outcome_root: string };
  };
  const lcb = (await follower.rpc<LightClientBlock>('next_light_client_block', { last_block_hash: early }))
    .body.result!;
  const made = (
    await producer.rpc<{ header: { prev_hash: string; prev_state_root: string; outcome_root: string } }>(
      'block',
      { block_id: lcb.inner_lite.height },
    )
  ).body.result!.header;
  t.same(
    [lcb.prev_block_hash, lcb.inner_lite.prev_state_root, lcb.inner_lite.outcome_root],
    [made.prev_hash, made.prev_state_root, made.outcome_root],
    `next_light_client_block after #3: the producer's #${lcb.inner_lite.height}`,
  );
  const blockProof = await same(
    'EXPERIMENTAL_light_client_block_proof',
    { block_hash: early, light_client_head },
    '#3',
  );
  t.ok(blockProof.result?.block_proof, 'a block proof, not an error');
  for (const h of [top - 10, top]) {
    const state = await same(
      'query',
      {
        request_type: 'view_state',
        account_id: 'carol.test.near',
        prefix_base64: '',
        include_proof: true,
        block_id: h,
      },
      `carol's state with its proof #${h}`,
    );
    t.ok((state.result?.proof as unknown[] | undefined)?.length, 'with a proof');
  }
  // The upstream's own error comes back as it wrote it.
  const unknown = await same(
    'EXPERIMENTAL_light_client_proof',
    { type: 'transaction', transaction_hash: early, sender_id: 'test.near', light_client_head },
    'of no transaction',
  );
  t.ok(unknown.error, 'an error, the upstream’s');

  // What the follower asked of its upstream, for its operator.
  const metrics = await (await fetch(`${follower.url}/metrics`)).text();
  const count = (method: string, outcome: string) =>
    Number(
      new RegExp(
        `^nearlite_upstream_requests_total\\{method="${method}",outcome="${outcome}"\\} (\\d+)$`,
        'm',
      ).exec(metrics)?.[1] ?? 0,
    );
  t.ok(count('query', 'result') >= 3, 'code and state proofs asked with `query`');
  t.equal(count('EXPERIMENTAL_light_client_proof', 'result'), 2);
  t.equal(count('EXPERIMENTAL_light_client_proof', 'error'), 1);
  t.equal(count('next_light_client_block', 'result'), 1);
  t.ok(count('status', 'result') >= 1, 'the check of its chain at start');
  t.match(metrics, /^nearlite_upstream_request_seconds_total\{method="query"\} [\d.e-]+$/m);
});
