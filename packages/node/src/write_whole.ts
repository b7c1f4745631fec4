// A home's files (keys, config, genesis, the clean-stop record, state dumps) are written whole or not
// at all: a temporary file beside the target, renamed over it. A write that fails half way (a full
// disk) would otherwise leave a truncated key or genesis that every later start or `init` trips on.
import {
  closeSync,
  copyFileSync,
  fsyncSync,
  lstatSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';

/** A write that failed, naming the file (Node's own `ENOSPC` message names none). */
export class FileWriteError extends Error {
  override readonly name = 'FileWriteError';
  constructor(
    readonly path: string,
    override readonly cause: Error,
  ) {
    super(`cannot write ${path}: ${describe(cause)}`);
  }
}

function describe(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC') return 'no space left on the disk';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'the file system is read-only';
  return err.message;
}

/**
 * Writes `data` to `path` whole: into `path.tmp`, synced, then renamed over `path`. On failure
 * nothing is left at `path.tmp` and `path` is as it was.
 */
export function writeFileWhole(path: string, data: string | Uint8Array, mode = 0o644): void {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  whole(path, (tmp) => {
    const fd = openSync(tmp, 'w', mode);
    try {
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
      syncIfFile(fd);
    } finally {
      closeSync(fd);
    }
  });
}

/** Copies `src` to `path` whole, as `writeFileWhole` writes (a genesis may be gigabytes). */
export function copyFileWhole(src: string, path: string): void {
  whole(path, (tmp) => copyFileSync(src, tmp));
}

function whole(given: string, write: (tmp: string) => void): void {
  const path = wholeTarget(given);
  if (path === null) {
    // Not a regular file (a device such as /dev/stdout, a pipe): written in place, as asked.
    try {
      write(given);
    } catch (err) {
      throw new FileWriteError(given, err as Error);
    }
    return;
  }
  const tmp = `${path}.tmp`;
  try {
    write(tmp);
    renameSync(tmp, path);
  } catch (err) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // The temporary file is never read: what matters is that `path` is untouched.
    }
    throw new FileWriteError(path, err as Error);
  }
}

/**
 * Where a whole write goes: the file a symlink names (the link stays a link), the path itself when
 * nothing is there yet, or null for what is not a regular file and cannot be replaced by a rename.
 */
function wholeTarget(path: string): string | null {
  let link: boolean;
  try {
    link = lstatSync(path).isSymbolicLink();
  } catch {
    return path;
  }
  let target = path;
  if (link) {
    try {
      target = realpathSync(path);
    } catch {
      // A link to nothing yet: writing through it makes its target.
      return null;
    }
  }
  return statSync(target).isFile() ? target : null;
}

/** A pipe or a terminal (a dump to /dev/stdout) has nothing to sync, and says so with EINVAL. */
function syncIfFile(fd: number): void {
  try {
    fsyncSync(fd);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EINVAL') throw err;
  }
}
