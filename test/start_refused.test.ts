// A start refused after the chain thread began to boot (here: a clean-stop record that cannot be
// removed, as on a home the node may read but not write) ends the process with the reason, instead
// of leaving it alive and serving nothing.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { initHome, refused, startNode } from './helpers/node.js';
import { tempDir } from './helpers/tmp.js';

t.test('a start refused while the chain thread boots exits with status 1', async (t) => {
  const home = tempDir(t);
  initHome(home);
  const node = await startNode(home);
  await node.stop();
  // What unlink cannot remove, even for root: a directory in the record's place.
  rmSync(join(home, 'clean_stop.json'), { force: true });
  mkdirSync(join(home, 'clean_stop.json'));
  writeFileSync(join(home, 'clean_stop.json', 'x'), '');
  refused(
    t,
    ['run', '--home', home, '--rpc-addr', '127.0.0.1:0'],
    /clean_stop\.json/,
    'the record in the way',
  );
});
