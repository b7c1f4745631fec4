// A recorded bench run names what it ran on: the runtime, the cores and the commit of the code.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
// @ts-expect-error: the bench is plain JavaScript without declarations
import { machineFacts, machineLine } from '../bench/src/machine.js';
import { tempDir } from './helpers/tmp.js';

type Facts = { node: string; v8: string; platform: string; cpus: number; commit: string | null };

t.test("the run's runtime, machine and commit", async (t) => {
  const m = machineFacts() as Facts;
  t.equal(m.node, process.version);
  t.equal(m.v8, process.versions.v8);
  t.equal(m.platform, `${process.platform} ${process.arch}`);
  t.equal(m.cpus, availableParallelism());
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  t.ok(m.commit?.startsWith(head), `commit ${m.commit} is HEAD ${head}`);
  const line = machineLine(m) as string;
  t.match(line, `Node ${process.version} (V8 ${process.versions.v8})`);
  t.match(line, `${m.cpus} CPUs`);
  t.match(line, `code ${m.commit}`);
});

t.test('outside a git checkout the commit is unknown', async (t) => {
  const m = machineFacts(tempDir(t)) as Facts;
  t.equal(m.commit, null);
  t.match(machineLine(m) as string, /code unknown$/);
});

t.test('a changed file marks the code modified, the results of an earlier run do not', async (t) => {
  const repo = tempDir(t, { 'bench/results/quick.md': 'run 1\n', 'code.js': '1\n' });
  const git = (...args: string[]) => {
    const r = spawnSync('git', ['-c', 'user.name=n', '-c', 'user.email=n@n', ...args], {
      cwd: repo,
      encoding: 'utf8',
    });
    t.equal(r.status, 0, r.stderr);
  };
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'first');
  const clean = (machineFacts(repo) as Facts).commit;
  t.match(clean, /^[0-9a-f]{7,}$/, 'a clean checkout: the commit alone');
  writeFileSync(join(repo, 'bench', 'results', 'quick.md'), 'run 2\n');
  t.equal((machineFacts(repo) as Facts).commit, clean, 'new results: still the commit alone');
  writeFileSync(join(repo, 'code.js'), '2\n');
  t.equal((machineFacts(repo) as Facts).commit, `${clean} (modified)`, 'changed code: marked');
});
