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
 * When the process started, in clock ticks since boot: field 22 of `/proc/<pid>/stat` (proc(5)),
 * read after the last `)` since the command name may hold spaces and parentheses. A PID is handed
 * out again once its process is gone (soon, on a busy host with `pid_max` 32768); PID and start
 * time together name one process. Undefined where there is no `/proc` (the PID alone then).
 */
function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const field = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return field !== undefined && /^\d+$/.test(field) ? field : undefined;
  } catch {
    return undefined;
  }
}

/** The lock's content for this process: `<pid> <start time>`, or the PID alone without `/proc`. */
function ownLine(): string {
  const started = processStartTime(process.pid);
  return started === undefined ? `${process.pid}` : `${process.pid} ${started}`;
}

/**
 * Whether the process the lock names still runs: its PID is alive and, when the lock recorded a
 * start time and `/proc` tells the PID's, the two agree. A PID now held by another process is stale.
 */
function ownerRuns(pid: number, started: string | undefined): boolean {
  if (!alive(pid)) return false;
  if (started === undefined) return true; // a lock written without a start time: the PID is all there is
  const now = processStartTime(pid);
  return now === undefined || now === started;
}

/**
 * The embedded database belongs to one process: two PGlite instances on one directory each write
 * their own view and corrupt it for good. Takes `DATA_DIR/data.lock` (created exclusively, holding
 * the owner's PID and start time); a lock whose process is gone, or whose PID now belongs to a
 * process started at another time, is stale and taken over. Answers the release,
 * which removes the file only while it is still this process's.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const line = ownLine();
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      writeSync(fd, `${line}\n`);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const [pidField, started] = readFileSync(file, 'utf8').trim().split(/\s+/);
      const owner = Number.parseInt(pidField ?? '', 10);
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && ownerRuns(owner, started)) {
        throw new StartRefused(
          `DATA_DIR ${shownPath(dataDir)} is in use by process ${owner}; stop it or set another DATA_DIR`,
        );
      }
      rmSync(file, { force: true }); // stale: its process is gone, its PID reused (or it was this one's)
    }
  }
  const release = (): void => {
    try {
      if (readFileSync(file, 'utf8').trim() === line) rmSync(file, { force: true });
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
