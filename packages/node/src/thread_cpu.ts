// CPU time from Linux's /proc stat files (user and system time, in the kernel's clock ticks of
// 1/100 s). Node has no per-thread CPU clock before version 23; a worker's process.cpuUsage() is the
// whole process's.
import { readFileSync, readlinkSync } from 'node:fs';

const TICKS_PER_SECOND = 100;
let unavailable = false;

/** Seconds of CPU in the text of a /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat file. */
export function statCpuSeconds(stat: string): number {
  // The command name, in parentheses, may hold spaces: the fields are counted after its end.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Seconds of CPU the calling thread has used, or null where /proc/thread-self is not there. */
export function threadCpuSeconds(): number | null {
  if (unavailable) return null;
  try {
    return statCpuSeconds(readFileSync('/proc/thread-self/stat', 'latin1'));
  } catch {
    unavailable = true;
    return null;
  }
}

/**
 * The calling thread's id in this process's /proc/self/task, or null where there is none: another
 * thread of the process reads that thread's CPU time from it (`taskCpuSeconds`) when it is asked for,
 * rather than the thread reading its own after each block.
 */
export function threadTaskId(): number | null {
  try {
    // "PID/task/TID"
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isSafeInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** Seconds of CPU a thread of this process (by `threadTaskId`) has used, or null once it is gone. */
export function taskCpuSeconds(tid: number): number | null {
  try {
    return statCpuSeconds(readFileSync(`/proc/self/task/${tid}/stat`, 'latin1'));
  } catch {
    return null;
  }
}
