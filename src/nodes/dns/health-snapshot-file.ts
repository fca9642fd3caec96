import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { MemberHealth } from '../../dns/index.ts';
import { AtomicFileWriter, type AtomicFileWriterOptions } from '../shared/atomic-file-writer.ts';
import type { HealthTableWriter } from './member-health-sync.ts';

export const HEALTH_SNAPSHOT_FILE_NAME = 'dns-health.json';
const FORMAT = 1;

interface StoredHealth {
  readonly format: number;
  readonly writtenAt: string;
  /** Member id → its last decided status (`unknown` members are left out). */
  readonly members: Record<string, MemberHealth>;
}

const WORDS: ReadonlySet<string> = new Set(['healthy', 'unhealthy']);

/**
 * The member health a DNS node last knew, on disk beside the zone snapshot, so that a node that
 * starts while the database is down serves the health it last knew, not `unknown`. A file of its
 * own: health changes far more often than zones, and rewriting a large zone snapshot for each
 * would cost much more than this small file.
 */
export class HealthSnapshotFile implements HealthTableWriter {
  private readonly status = new Map<number, MemberHealth>();
  private readonly writer: AtomicFileWriter;

  constructor(
    readonly file: string,
    options: AtomicFileWriterOptions = {},
  ) {
    this.writer = new AtomicFileWriter(
      file,
      async (out) => {
        const stored: StoredHealth = {
          format: FORMAT,
          writtenAt: new Date().toISOString(),
          members: Object.fromEntries(this.status),
        };
        await out.write(JSON.stringify(stored));
      },
      options,
    );
  }

  static inDir(dataDir: string, options: AtomicFileWriterOptions = {}): HealthSnapshotFile {
    return new HealthSnapshotFile(path.join(dataDir, HEALTH_SNAPSHOT_FILE_NAME), options);
  }

  set(memberId: number, status: MemberHealth): void {
    if ((this.status.get(memberId) ?? 'unknown') === status) return;
    if (status === 'unknown') this.status.delete(memberId);
    else this.status.set(memberId, status);
    this.writer.schedule();
  }

  /** Every member's status at once (a full load): members not in `all` are forgotten. */
  replaceAll(all: ReadonlyMap<number, MemberHealth>): void {
    this.status.clear();
    for (const [id, s] of all) if (s !== 'unknown') this.status.set(id, s);
    this.writer.schedule();
  }

  /** The statuses of the last file written; null when there is none or it does not parse. */
  async read(): Promise<Map<number, MemberHealth> | null> {
    try {
      const parsed = JSON.parse(await readFile(this.file, 'utf8')) as StoredHealth;
      if (parsed.format !== FORMAT || typeof parsed.members !== 'object' || parsed.members === null)
        return null;
      const out = new Map<number, MemberHealth>();
      for (const [id, s] of Object.entries(parsed.members))
        if (Number.isInteger(Number(id)) && WORDS.has(s)) out.set(Number(id), s);
      return out;
    } catch {
      return null;
    }
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }
}
