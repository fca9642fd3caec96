import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

export interface AtomicFileWriterOptions {
  /** Longest a change waits before it is on disk (debounce: bursts of changes make one write). */
  readonly debounceMs?: number;
  readonly onError?: (error: unknown) => void;
  /** Called once a write is in place (after the rename), before the next write may start. */
  readonly onReplaced?: () => Promise<void>;
}

/**
 * Writes a file that a node (DNS, edge) reads back at a cold start: debounced (schedule() after each
 * change), serialised (two writes never race on the temp file, the last state always wins) and
 * atomic (temp file + rename, so a crash mid-write leaves the previous file intact).
 */
export class AtomicFileWriter {
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly debounceMs: number;

  constructor(
    readonly file: string,
    /** Writes the whole contents into `out` (called with the state at write time). */
    private readonly contents: (out: FileHandle) => Promise<void>,
    private readonly options: AtomicFileWriterOptions = {},
  ) {
    this.debounceMs = options.debounceMs ?? 1000;
  }

  /** A change happened: write within debounceMs. */
  schedule(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.enqueueWrite();
    }, this.debounceMs);
    this.timer.unref();
  }

  /** Writes what is pending now (shutdown, tests). */
  async flush(): Promise<void> {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
      this.enqueueWrite();
    }
    await this.writing;
  }

  private enqueueWrite(): void {
    this.writing = this.writing.then(() =>
      this.write().catch((error: unknown) => this.options.onError?.(error)),
    );
  }

  private async write(): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const out = await open(temp, 'w', 0o600);
    try {
      await this.contents(out);
    } finally {
      await out.close();
    }
    await rename(temp, this.file);
    await this.options.onReplaced?.();
  }
}
