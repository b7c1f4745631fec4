// A node whose database fails a write — here the kernel refuses to let LevelDB's log grow past a file
// size limit, as a full disk refuses with ENOSPC — stops producing, says so once, and goes on
// answering reads. Restarted without the limit, whether it was stopped or killed, it still has every
// block it announced (same hashes) and every transaction it answered, checks whole, and produces again.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { actions as A, baseEncode } from 'near-api-js';
import t from 'tap';
import { contract } from './helpers/contracts.js';
import {
  cli,
  editProductionDelays,
  initHome,
  type RunningNode,
  readKeyFile,
  spawnNearlite,
  startNode,
  waitForHeight,
} from './helpers/node.js';
import { httpRequest } from './helpers/post.js';
import { signFromValidator } from './helpers/signed_tx.js';
import { tempDir } from './helpers/tmp.js';

/**
 * A few deploys of these contracts fill it: each stores its code four times over (the transaction, its
 * receipt, the state and its change).
 */
const LOG_LIMIT = 3 * 1024 * 1024;
const STOPPED =
  /block production stopped: the database failed a write and takes no more until it is opened again: IO error: .*File too large/g;

type Block = { header: { height: number; hash: string } };
type Outcome = { status: Record<string, unknown> };

const codeHash = (code: Uint8Array) => baseEncode(createHash('sha256').update(code).digest());

for (const ending of ['stopped', 'killed'] as const) {
  t.test(`a failed write, then the node ${ending} and started without the limit`, async (t) => {
    const home = tempDir(t);
    initHome(home);
    // 200 ms, so that health's 10 × rule takes two seconds here rather than nearcore's default 20 s.
    editProductionDelays(home, 100, 200);
    const key = readKeyFile(home);
    const codes = [contract('testnet-linkdrop.wasm'), contract('fungible_token.wasm')];
    let node: RunningNode = await spawnNearlite(
      ['run', '--home', home, '--rpc-addr', '127.0.0.1:0', '--block-time', '100'],
      30_000,
      undefined,
      LOG_LIMIT,
    );
    t.teardown(() => node.kill());
    await waitForHeight(node, 2);

    // Deploys, one after another, until one is not answered: each answered one is kept with the code
    // it deployed.
    const answered: { hash: string; code: Uint8Array }[] = [];
    let unanswered: { status: number; name?: string; cause?: string } | null = null;
    for (let i = 0; i < 40 && unanswered === null; i++) {
      const code = codes[i % 2]!;
      const tx = await signFromValidator(node, key, key.account_id, [A.deployContract(code)]);
      const r = await node.rpc<Outcome>('send_tx', {
        signed_tx_base64: tx.base64,
        wait_until: 'EXECUTED_OPTIMISTIC',
      });
      if (r.body.result) {
        t.same(r.body.result.status, { SuccessValue: '' }, `deploy ${i} succeeded`);
        answered.push({ hash: tx.hash, code });
      } else unanswered = { status: r.status, name: r.body.error?.name, cause: r.body.error?.cause.name };
    }
    t.ok(answered.length >= 1, `${answered.length} deploys answered before the limit`);
    t.same(
      unanswered,
      { status: 408, name: 'HANDLER_ERROR', cause: 'TIMEOUT_ERROR' },
      'the deploy in flight when the write failed times out as nearcore would answer it',
    );
    t.equal(node.logs().match(STOPPED)?.length, 1, 'the failure is logged once, with its cause');

    // Still serving what it has.
    const head = (await node.rpc<Block>('block', { finality: 'optimistic' })).body.result!.header;
    const final = (await node.rpc<Block>('block', { finality: 'final' })).body.result!.header;
    const last = answered.at(-1)!;
    const view = await node.rpc<{ code_hash: string }>('query', {
      request_type: 'view_account',
      account_id: key.account_id,
      finality: 'optimistic',
    });
    t.equal(view.body.result?.code_hash, codeHash(last.code), 'the last answered deploy is the state read');
    await new Promise((r) => setTimeout(r, 500));
    const later = (await node.rpc<Block>('block', { finality: 'optimistic' })).body.result!.header;
    t.equal(later.height, head.height, 'no block is produced after the failure');
    t.equal(node.proc.exitCode, null, 'the process is still up');
    let health = await node.rpc('health', []);
    for (let i = 0; i < 100 && health.body.error === undefined; i++) {
      await new Promise((r) => setTimeout(r, 100));
      health = await node.rpc('health', []);
    }
    t.equal(health.body.error?.cause.name, 'NO_NEW_BLOCKS', 'health says no new blocks come');
    t.equal((await httpRequest(`${node.url}/health`, 'GET', {})).status, 503);

    if (ending === 'stopped') t.equal(await node.stop(), 0, 'a stop after the failure exits cleanly');
    else await node.kill();

    node = await startNode(home, ['--block-time', '100']);
    for (const b of [head, final]) {
      const again = await node.rpc<Block>('block', { block_id: b.height });
      t.equal(again.body.result?.header.hash, b.hash, `block #${b.height} is the one announced`);
    }
    for (const a of answered) {
      const r = await node.rpc<Outcome>('tx', {
        tx_hash: a.hash,
        sender_account_id: key.account_id,
        wait_until: 'NONE',
      });
      t.same(r.body.result?.status, { SuccessValue: '' }, `deploy ${a.hash} is kept with its outcome`);
    }
    // The deploy that was in flight ran by now if its chunk had been stored, so the key's nonce is
    // settled for the next one.
    await waitForHeight(node, head.height + 3);
    const next = codes.find((c) => c !== last.code)!;
    const more = await signFromValidator(node, key, key.account_id, [A.deployContract(next)]);
    const r = await node.rpc<Outcome>('send_tx', { signed_tx_base64: more.base64, wait_until: 'FINAL' });
    t.same(r.body.result?.status, { SuccessValue: '' }, 'production goes on: a new deploy runs');
    const after = await node.rpc<{ code_hash: string }>('query', {
      request_type: 'view_account',
      account_id: key.account_id,
      finality: 'final',
    });
    t.equal(after.body.result?.code_hash, codeHash(next));
    t.equal(await node.stop(), 0);
    const verify = cli(['inspect', '--home', home, 'verify']);
    t.equal(verify.status, 0, verify.stderr);
    t.same(JSON.parse(verify.stdout).problems, [], 'every kept height checks whole');
  });
}

t.test('a follower whose write fails exits; started without the limit, it catches up whole', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const key = readKeyFile(home);
  const codes = [contract('testnet-linkdrop.wasm'), contract('fungible_token.wasm')];
  const producer = await startNode(home, ['--block-time', '100']);
  t.teardown(() => producer.kill());
  const followerHome = join(home, 'follower');
  initHome(followerHome, ['--genesis', join(home, 'genesis.json')]);
  const args = ['run', '--home', followerHome, '--rpc-addr', '127.0.0.1:0', '--follow', producer.url];
  let follower = await spawnNearlite(args, 30_000, undefined, LOG_LIMIT);
  t.teardown(() => follower.kill());
  const exited = new Promise<number | null>((resolve) => follower.proc.on('exit', resolve));

  const deploys: string[] = [];
  for (let i = 0; i < 40 && follower.proc.exitCode === null; i++) {
    const tx = await signFromValidator(producer, key, key.account_id, [A.deployContract(codes[i % 2]!)]);
    const r = await producer.rpc<Outcome>('send_tx', { signed_tx_base64: tx.base64, wait_until: 'FINAL' });
    t.same(r.body.result?.status, { SuccessValue: '' }, `deploy ${i} succeeded`);
    deploys.push(tx.hash);
  }
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    exited,
    new Promise((r) => {
      timer = setTimeout(() => r('still running'), 30_000);
    }),
  ]);
  clearTimeout(timer);
  t.equal(code, 1, 'the follower exits with an error once its write fails');
  t.match(
    follower.logs(),
    /following stopped \(the database failed a write and takes no more until it is opened again: IO error: .*File too large\): shutting down/,
  );

  follower = await startNode(followerHome, ['--follow', producer.url]);
  const final = (await producer.rpc<Block>('block', { finality: 'final' })).body.result!.header;
  await waitForHeight(follower, final.height);
  for (let h = 1; h <= final.height; h++) {
    const [p, f] = await Promise.all([
      producer.rpc<Block>('block', { block_id: h }),
      follower.rpc<Block>('block', { block_id: h }),
    ]);
    if (f.body.result?.header.hash !== p.body.result?.header.hash)
      t.fail(`block #${h}: ${JSON.stringify(f.body.result?.header.hash ?? f.body.error)}`);
  }
  t.pass(`blocks 1..${final.height} are the producer's`);
  for (const hash of deploys) {
    const r = await follower.rpc<Outcome>('tx', { tx_hash: hash, sender_account_id: key.account_id });
    t.same(r.body.result?.status, { SuccessValue: '' }, `deploy ${hash} is followed`);
  }
  t.equal(await follower.stop(), 0);
  const verify = cli(['inspect', '--home', followerHome, 'verify']);
  t.equal(verify.status, 0, verify.stderr);
  t.same(JSON.parse(verify.stdout).problems, [], 'every kept height checks whole');
});
