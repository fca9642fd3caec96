import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { PublishedGameRoute } from '../../modules/gameproxy/index.ts';
import { AtomicFileWriter, type AtomicFileWriterOptions } from '../shared/atomic-file-writer.ts';

export const EDGE_SNAPSHOT_FILE_NAME = 'edge-snapshot.json';
const FORMAT = 1;

interface StoredRoutes {
  readonly format: number;
  readonly writtenAt: string;
  readonly routes: readonly PublishedGameRoute[];
}

/**
 * The routes an edge node last loaded, in DATA_DIR, so that a node that starts while the database
 * is down routes players as it last did. Written whole (routes are few and small) after each load.
 */
export class EdgeSnapshotFile {
  private routes: readonly PublishedGameRoute[] = [];
  /** The routes last scheduled, as text: a reload that changed nothing writes nothing. */
  private last: string | null = null;
  private readonly writer: AtomicFileWriter;

  constructor(
    readonly file: string,
    options: AtomicFileWriterOptions = {},
  ) {
    this.writer = new AtomicFileWriter(
      file,
      async (out) => {
        const stored: StoredRoutes = {
          format: FORMAT,
          writtenAt: new Date().toISOString(),
          routes: this.routes,
        };
        await out.write(JSON.stringify(stored));
      },
      options,
    );
  }

  static inDir(dataDir: string, options: AtomicFileWriterOptions = {}): EdgeSnapshotFile {
    return new EdgeSnapshotFile(path.join(dataDir, EDGE_SNAPSHOT_FILE_NAME), options);
  }

  /** The routes now served: on disk within the writer's debounce (unless the file has them already). */
  replaceAll(routes: readonly PublishedGameRoute[]): void {
    const text = JSON.stringify(routes);
    if (text === this.last) return;
    this.last = text;
    this.routes = routes;
    this.writer.schedule();
  }

  /** The routes of the last file written; null when there is none or it does not parse. */
  async read(): Promise<PublishedGameRoute[] | null> {
    try {
      const parsed = JSON.parse(await readFile(this.file, 'utf8')) as Partial<StoredRoutes>;
      if (parsed.format !== FORMAT || !Array.isArray(parsed.routes)) return null;
      return parsed.routes.filter(isPublishedRoute);
    } catch {
      return null;
    }
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }
}

/** A stored route with the fields routing needs (a hand-edited or foreign file is not trusted). */
function isPublishedRoute(r: unknown): r is PublishedGameRoute {
  if (typeof r !== 'object' || r === null) return false;
  const route = r as Partial<PublishedGameRoute>;
  return (
    typeof route.id === 'number' &&
    (route.mode === 'proxy' || route.mode === 'status_only') &&
    Array.isArray(route.exact) &&
    Array.isArray(route.wildcard) &&
    typeof route.statusCacheTtlSeconds === 'number'
  );
}
