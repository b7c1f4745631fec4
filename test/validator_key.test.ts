// A home whose validator key is not a genesis validator's serves the chain read-only, and its log
// says which of the two the key misses: the validator's account, or its public key.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { initHome, startNode } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

t.test("a key that is not the genesis validator's: the log names what it misses", async (t) => {
  const dir = tempDir(t);
  initHome(join(dir, 'chain'));
  const genesis = join(dir, 'chain', 'genesis.json');
  for (const [name, accountId, expected] of [
    ['other-key', 'test.near', "the validator key does not hold genesis validator test.near's public key"],
    ['other-account', 'other.near', 'the validator key names other.near, which is not a genesis validator'],
  ] as const) {
    const home = join(dir, name);
    // A home of its own on that genesis: a key of its own.
    initHome(home, ['--genesis', genesis]);
    const file = join(home, 'validator_key.json');
    const key = JSON.parse(readFileSync(file, 'utf8')) as { account_id: string };
    writeFileSync(file, JSON.stringify({ ...key, account_id: accountId }));
    const node = await startNode(home);
    t.match(node.logs(), expected, name);
    t.match(node.logs(), 'so it serves the chain read-only');
    const status = await node.rpc<{ validator_account_id: string | null }>('status', []);
    t.equal(status.body.result?.validator_account_id, null, 'no block producer here');
    await node.stop();
  }
});
