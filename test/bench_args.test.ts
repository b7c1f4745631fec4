// `npm run bench` takes `--quick` and `--only <text>`; anything else stops it before a run that may
// take an hour starts.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import t from 'tap';

const MAIN = join(import.meta.dirname, '..', 'bench', 'src', 'main.js');
const bench = (...args: string[]) => spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });

t.test('bench arguments: --help prints the usage, an unknown one is refused', async (t) => {
  const help = bench('--help');
  t.equal(help.status, 0);
  t.match(help.stderr, /^usage: npm run bench \[-- --quick\] \[-- --only <text>\]/);
  const unknown = bench('--quick', '--bogus');
  t.equal(unknown.status, 2);
  t.match(unknown.stderr, /^unknown argument --bogus\nusage:/);
});
