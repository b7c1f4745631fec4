// The command line's own refusals: usage errors name what is wrong instead of starting anything.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { main, UsageError, VERSION } from '@nearlite/node';
import t from 'tap';
import { tempDir } from '../../../test/helpers/tmp.js';

const CLI = join(import.meta.dirname, '..', 'bin', 'nearlite.js');

t.test('version, help and usage', async (t) => {
  const { status, stdout } = spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' });
  t.equal(status, 0);
  t.equal(stdout, `${VERSION}\n`);
  const help = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
  t.equal(help.status, 0);
  t.match(help.stdout, /Usage:/);
  t.equal(spawnSync(process.execPath, [CLI], { encoding: 'utf8' }).status, 2, 'no command: usage, exit 2');
});

t.test('usage errors', async (t) => {
  await t.rejects(main(['bogus']), UsageError, 'an unknown command');
  await t.rejects(main(['run']), { name: 'UsageError', message: /--home/ }, 'run without a home');
  await t.rejects(main(['init']), { name: 'UsageError', message: /--home/ }, 'init without a home');
  await t.rejects(main(['inspect']), { name: 'UsageError', message: /--home/ });
  await t.rejects(
    main(['init', '--home', tempDir(t), '--shards', 'two']),
    { name: 'UsageError', message: /--shards/ },
    'a non-numeric flag',
  );
  await t.rejects(main(['--no-such-flag']), TypeError, 'an unknown flag is refused by the parser');
});
