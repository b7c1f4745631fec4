// What a run was measured on: the figures move by 15–20 % between Node releases on the same code
// and machine (docs/PERFORMANCE.md), so a recorded run names its runtime, its cores and its code.
import { spawnSync } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';

/** The runtime, the machine and the code's commit (null outside a git checkout). */
export function machineFacts(cwd = import.meta.dirname) {
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: `${process.platform} ${process.arch}`,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? null,
    commit: commitOf(cwd),
  };
}

/** HEAD's short hash, marked when tracked code differs from it; null outside a git checkout. */
function commitOf(cwd) {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd, encoding: 'utf8' });
  if (head.status !== 0) return null;
  const commit = head.stdout.trim();
  // The code, not the results a run before this one left uncommitted.
  const changed = spawnSync(
    'git',
    ['status', '--porcelain', '--untracked-files=no', '--', ':(top)', ':(top,exclude)bench/results'],
    { cwd, encoding: 'utf8' },
  );
  return changed.status === 0 && changed.stdout.trim() !== '' ? `${commit} (modified)` : commit;
}

/** One line for a results file. */
export function machineLine(m) {
  const cpu = m.cpuModel ? ` (${m.cpuModel})` : '';
  return `Node ${m.node} (V8 ${m.v8}) on ${m.platform}, ${m.cpus} CPUs${cpu} · code ${m.commit ?? 'unknown'}`;
}
