import { openSync, readFileSync, rmSync, writeSync, closeSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/** A start that must not go on: the message is the whole story, printed as one line (exit 2). */
export class StartRefused extends Error {
  override readonly name = 'StartRefused';
}

const LOCK_FILE = 'data.lock';

/** A directory as an operator names it: `./data` below the working directory, else absolute. */
export function shownPath(dir: string): string {
  const rel = path.relative(process.cwd(), dir);
  return rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? dir : `./${rel}`;
}

/** Whether a process with this PID runs (EPERM: it does, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded database belongs to one process: two PGlite instances on one directory each write
 * their own view and corrupt it for good. Takes `DATA_DIR/data.lock` (created exclusively, holding
 * the owner's PID); a lock whose process is gone is stale and taken over. Answers the release,
 * which removes the file only while it is still this process's.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const owner = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
        throw new StartRefused(
          `DATA_DIR ${shownPath(dataDir)} is in use by process ${owner}; stop it or set another DATA_DIR`,
        );
      }
      rmSync(file, { force: true }); // stale: its process is gone (or it was this one's)
    }
  }
  const release = (): void => {
    try {
      if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
  process.once('exit', release);
  return () => {
    process.removeListener('exit', release);
    release();
  };
}
