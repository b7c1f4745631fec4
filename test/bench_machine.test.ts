// A recorded bench run names what it ran on: the runtime, the cores and the commit of the code.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
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
