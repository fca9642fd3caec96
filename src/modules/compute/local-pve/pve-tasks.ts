/**
 * Tasks of the local PVE server, as PVE's worker tasks behave: a UPID answered at once, the work
 * running asynchronously, `status: running` until it ends, then `stopped` with `exitstatus` `OK`,
 * `WARNINGS: n`, or the error's first line (as PVE's task log's last line).
 */
import type { Clock } from '../../../kernel/clock.ts';
import { upidEncode } from './pve-wire.ts';

export interface TaskRecord {
  readonly upid: string;
  readonly node: string;
  readonly pid: number;
  readonly pstart: number;
  readonly starttime: number;
  readonly type: string;
  readonly id: string;
  readonly user: string;
  status: 'running' | 'stopped';
  exitstatus: string | null;
  endtime: number | null;
  readonly log: string[];
  readonly done: Promise<void>;
}

/** What a task's work may say: warnings make the exit status `WARNINGS: n`. */
export interface TaskLog {
  log(line: string): void;
  warn(line: string): void;
}

export class PveTasks {
  private readonly tasks = new Map<string, TaskRecord>();
  private nextPid = 0x1a2b0;
  /** The "process start" of the daemon, in clock ticks since boot (any stable number). */
  private readonly pstart = 0x0052f8e1;
  /** Called when a task ends (the server saves its state then). */
  onEnd: (() => void) | null = null;

  constructor(private readonly clock: Clock) {}

  start(node: string, type: string, id: string, user: string, work: (log: TaskLog) => Promise<void>): string {
    this.nextPid = (this.nextPid + 1) % 0x400000 || 1;
    const starttime = Math.floor(this.clock.now() / 1000);
    const upid = upidEncode({ node, pid: this.nextPid, pstart: this.pstart, starttime, type, id, user });
    const lines: string[] = [];
    let warnings = 0;
    const logger: TaskLog = {
      log: (l) => lines.push(l),
      warn: (l) => {
        warnings += 1;
        lines.push(`WARN: ${l}`);
      },
    };
    const record: TaskRecord = {
      upid,
      node,
      pid: this.nextPid,
      pstart: this.pstart,
      starttime,
      type,
      id,
      user,
      status: 'running',
      exitstatus: null,
      endtime: null,
      log: lines,
      done: Promise.resolve()
        .then(() => work(logger))
        .then(
          () => {
            record.exitstatus = warnings > 0 ? `WARNINGS: ${warnings}` : 'OK';
            lines.push(warnings > 0 ? `TASK WARNINGS: ${warnings}` : 'TASK OK');
          },
          (err: unknown) => {
            const msg =
              (err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim() || 'unknown error';
            record.exitstatus = msg;
            lines.push(`TASK ERROR: ${msg}`);
          },
        )
        .finally(() => {
          record.status = 'stopped';
          record.endtime = Math.floor(this.clock.now() / 1000);
          this.onEnd?.();
        }),
    };
    this.tasks.set(upid, record);
    return upid;
  }

  get(upid: string): TaskRecord | undefined {
    return this.tasks.get(upid);
  }

  /** Every task not yet stopped has ended (the server's close waits for them). */
  async settle(): Promise<void> {
    await Promise.all([...this.tasks.values()].map((t) => t.done));
  }
}
