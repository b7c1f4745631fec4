// SIGKILL under transfers that cross four shards, with GC running all along. Four accounts, one on
// each shard, send each other transfers while the node is killed at random moments, ten times over.
// Every transfer acknowledged at INCLUDED has run, its receipt on the other shard too (checked at the
// next start, before GC can take its block). After the last restart, once the chain settles: the
// money every shard holds is the head's total supply less what its chunks burnt; the flat head-state
// rows are every shard's trie at the head, key by key; and the State column holds exactly what GC
// should have left (state_column.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChainReader } from '@nearlite/chain';
import { Store } from '@nearlite/store';
import { actions as A, type Action, KeyPairSigner, type KeyPairString } from 'near-api-js';
import t from 'tap';
import { flatRows, fromTries } from '../packages/chain/test/flat_rows.js';
import { checkStateColumn } from '../packages/chain/test/state_column.js';
import { initHome, type RunningNode, readKeyFile, startNode, waitForHeight } from './helpers/node.js';
import { signFromValidator } from './helpers/signed_tx.js';
import { supplyAtHead } from './helpers/supply.js';
import { tempDir } from './helpers/tmp.js';

const CYCLES = 10;
const NEAR = 10n ** 24n;
// One on each shard of the four-shard layout.
const USERS = ['alice.test.near', 'henry.test.near', 'olga.test.near', 'ulf.test.near'];

type Block = { header: { height: number; hash: string } };
type Outcome = { status: { SuccessValue?: string; Failure?: unknown } };

t.test(`${CYCLES} SIGKILLs under transfers across four shards lose nothing and break no shard`, async (t) => {
  const home = tempDir(t);
  // Epochs of five blocks: GC runs all along, and kills come in the middle of it too.
  initHome(home, ['--shards', '4', '--epoch-length', '5']);
  // Each epoch mints a reward. With the validator as the treasury, nearcore's reward map gives it its
  // validator reward in place of the treasury's share, which is then minted and paid to no one; with
  // another treasury, all of it is paid, and the money held adds up to the supply.
  const genesisPath = join(home, 'genesis.json');
  const genesis = JSON.parse(readFileSync(genesisPath, 'utf8')) as { protocol_treasury_account: string };
  writeFileSync(genesisPath, JSON.stringify({ ...genesis, protocol_treasury_account: 'near' }, null, 2));
  const key = readKeyFile(home);
  const signer = KeyPairSigner.fromSecretKey(key.secret_key as KeyPairString);
  const pk = await signer.getPublicKey();
  let node: RunningNode | null = null;
  t.teardown(() => node?.kill());

  const nonces = new Map<string, bigint>();
  /** A transaction from `from`, signed with the validator's key every account here holds. */
  const signed = (n: RunningNode, from: string, to: string, actions: Action[]) => {
    const nonce = (nonces.get(from) ?? 0n) + 1n;
    nonces.set(from, nonce);
    return signFromValidator(n, { account_id: from, secret_key: key.secret_key }, to, actions, nonce);
  };
  /** The nonces of every signer's key as the node has them, raised to what was sent. */
  const syncNonces = async (n: RunningNode) => {
    for (const id of ['test.near', ...USERS]) {
      const ak = await n.rpc<{ nonce: number }>('query', {
        request_type: 'view_access_key',
        account_id: id,
        public_key: pk.toString(),
        finality: 'optimistic',
      });
      // A key not there yet comes back as a result holding an error, as nearcore answers it.
      const stored = ak.body.result?.nonce !== undefined ? BigInt(ak.body.result.nonce) : 0n;
      if (stored > (nonces.get(id) ?? 0n)) nonces.set(id, stored);
    }
  };

  node = await startNode(home, ['--block-time', '30', '--sandbox']);
  await waitForHeight(node, 3);
  await syncNonces(node);
  for (const id of USERS) {
    const tx = await signed(node, 'test.near', id, [
      A.createAccount(),
      A.transfer(100n * NEAR),
      A.addFullAccessKey(pk),
    ]);
    const r = await node.rpc<Outcome>('send_tx', { signed_tx_base64: tx.base64, wait_until: 'FINAL' });
    t.ok(r.body.result, `${id} created`);
  }
  await node.stop();

  let acknowledged = 0;
  /** Acknowledged in the cycle before, checked at the next start, before GC can take their blocks. */
  const unchecked: { hash: string; sender: string }[] = [];
  const refused: string[] = [];
  const lost: string[] = [];
  const checkRan = async (n: RunningNode) => {
    for (const { hash, sender } of unchecked.splice(0)) {
      const r = await n.rpc<Outcome>('tx', {
        tx_hash: hash,
        sender_account_id: sender,
        wait_until: 'EXECUTED',
      });
      if (r.body.error) lost.push(`${hash}: ${JSON.stringify(r.body.error.cause)}`);
      else if (r.body.result!.status.SuccessValue === undefined)
        lost.push(`${hash}: ${JSON.stringify(r.body.result!.status)}`);
    }
  };
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    node = await startNode(home, ['--block-time', '30', '--sandbox']);
    const n = node;
    await checkRan(n);
    // A few blocks first, so that GC has blocks to collect in every cycle.
    const at = (await n.rpc<Block>('block', { finality: 'optimistic' })).body.result!.header.height;
    await waitForHeight(n, at + 8);
    await syncNonces(n);
    const send = async (from: string) => {
      const to = USERS[(USERS.indexOf(from) + 1 + ((cycle + acknowledged) % 3)) % 4]!;
      const tx = await signed(n, from, to, [A.transfer(10n ** 21n)]);
      const r = await n.rpc('send_tx', { signed_tx_base64: tx.base64, wait_until: 'INCLUDED' });
      if (r.body.result) {
        acknowledged++;
        unchecked.push({ hash: tx.hash, sender: from });
      } else refused.push(JSON.stringify(r.body.error));
    };
    await Promise.all(USERS.map(send));
    // More in flight while the node dies: what was not acknowledged may or may not land.
    const inFlight = Promise.all(
      USERS.flatMap((id) => [send(id), send(id)].map((p) => p.catch(() => undefined))),
    );
    await new Promise((r) => setTimeout(r, (cycle * 11) % 50));
    await n.kill();
    await inFlight;
  }

  node = await startNode(home, ['--block-time', '30', '--sandbox']);
  const n = node;
  await checkRan(n);
  t.ok(
    acknowledged >= CYCLES * USERS.length,
    `${acknowledged} transfers acknowledged${refused.length > 0 ? `; refused: ${refused.slice(0, 3).join(' ')}` : ''}`,
  );
  t.same(lost, [], 'every acknowledged transfer ran, and succeeded, on both of its shards');
  // The last refunds land and what the head's chunks burnt reaches a header.
  const head = (await n.rpc<Block>('block', { finality: 'optimistic' })).body.result!.header.height;
  await waitForHeight(n, head + 6);
  await n.stop();
  node = null;

  const reader = await ChainReader.open(home);
  t.same(
    new Set(USERS.map((id) => reader.layout.accountIdToShardId(id))).size,
    4,
    'the senders are on four shards',
  );
  const { held, expected } = supplyAtHead(reader);
  t.equal(held, expected, 'Σ balances + stake = total supply − burnt');
  const headHash = reader.head()!.hash;
  const heights = [reader.tail(), reader.head()!.height] as const;
  const shardIds = reader.layout.shardIds;
  await reader.close();
  t.ok(heights[0] > 20, `GC moved the tail to ${heights[0]} of ${heights[1]}`);
  const store = await Store.open(join(home, 'data'));
  t.teardown(() => store.close());
  t.same(
    await flatRows(store),
    fromTries(store, shardIds, headHash),
    "the flat rows are every shard's trie at the head",
  );
  const { missing, leftOver, rows } = await checkStateColumn(store, shardIds, ...heights);
  t.same(
    { missing: missing.length, leftOver: leftOver.length },
    { missing: 0, leftOver: 0 },
    `the State column (${rows} rows) holds what the kept states reach and the tail replaced, nothing else`,
  );
});
