// The README's JavaScript, run as a reader would run it: saved as a module inside the checkout (where
// `near-api-js` and the workspace packages resolve), beside the `.nearlite` home `nearlite start`
// makes. Only the RPC address changes, to the free port the node took.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { spawnNearlite, waitForHeight } from './helpers/node.js';

const ROOT = join(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const snippets = [...README.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);

/** The one snippet that names `marker`: a README edit that splits or drops one fails here, not later. */
function snippet(marker: string): string {
  const found = snippets.filter((s) => s.includes(marker));
  if (found.length !== 1) throw new Error(`README: ${found.length} js blocks name ${marker}`);
  return found[0]!;
}

t.test('the README has the JavaScript this test runs, and nothing else in js blocks', async (t) => {
  t.equal(snippets.length, 3, 'three js blocks');
  for (const marker of ['viewBlock', 'root.transfer', 'ChainReader.open']) t.ok(snippet(marker), marker);
});

t.test('the README snippets run against `nearlite start` and its home', async (t) => {
  const base = join(ROOT, 'test', '.readme');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, 'run-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));

  const node = await spawnNearlite(['start', '--rpc-addr', '127.0.0.1:0'], 60_000, dir);
  t.teardown(() => node.stop());
  await waitForHeight(node, 1);

  const run = (name: string, code: string) => {
    const file = join(dir, `${name}.mjs`);
    writeFileSync(file, code.replaceAll('http://127.0.0.1:3030', node.url));
    const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    t.equal(r.status, 0, `${name} exits 0${r.status === 0 ? '' : `: ${r.stderr}`}`);
    return r.stdout;
  };
  const balance = async (accountId: string) => {
    const r = await node.rpc<{ amount: string }>('query', {
      request_type: 'view_account',
      account_id: accountId,
      finality: 'optimistic',
    });
    return BigInt(r.body.result!.amount);
  };

  const client = run('client', snippet('viewBlock'));
  t.match(client, /header: \{/, 'the block is printed');
  t.match(
    client,
    /code_hash: '11111111111111111111111111111111'/,
    'test.near is printed: an account without code',
  );

  const before = await balance('near');
  run('transfer', snippet('root.transfer'));
  t.equal((await balance('near')) - before, 10n ** 24n, 'the transfer moved 1 NEAR to `near`');

  t.equal(await node.stop(), 0, 'the node stops cleanly before its store is read');
  t.equal(await node.rpc('status').catch(() => null), null, 'the node is down');
  const reader = run('reader', snippet('ChainReader.open'));
  t.match(reader, /height: \d+/, 'the head is printed');
  t.match(reader, /amount: \d+n/, 'test.near is printed');
});
