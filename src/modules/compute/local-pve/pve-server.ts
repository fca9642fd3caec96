/**
 * A local server answering as a Proxmox VE cluster's HTTP API does (`/api2/json`): API-token
 * authentication, form-encoded parameters merged with the query string, PVE's parameter checks,
 * `{data}` answers as `application/json;charset=UTF-8`, errors as the HTTP status with the message
 * as reason phrase (400s with `{errors}`), `501 Method '...' not implemented` for unknown paths,
 * and asynchronous tasks. VMs run on an engine (state-engine.ts, or QEMU); the endpoints are those
 * of pve-routes.ts. For tests, `npm start` without a cluster, and newcomers.
 */
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { systemClock, type Clock } from '../../../kernel/clock.ts';
import { PveCluster, type LocalPveIso, type LocalPveTemplate, type PersistedState } from './pve-cluster.ts';
import type { PveEngine } from './pve-engine.ts';
import { findRoute } from './pve-routes.ts';
import { PveApiError } from './pve-wire.ts';

export type { LocalPveIso, LocalPveTemplate } from './pve-cluster.ts';

export interface LocalPveOptions {
  readonly engine: PveEngine;
  /** Where the engine's and the server's files live (`iso/`, `dump/`, `images/`). */
  readonly dataDir: string;
  /** Node names (default `['pve1']`). */
  readonly nodes?: readonly string[];
  /** Template VMs made at start (`template: 1`), e.g. one per OS template and node. */
  readonly templates?: readonly LocalPveTemplate[];
  /** ISO images of the `local` storage (besides the `.iso` files found in `<dataDir>/iso/`). */
  readonly isos?: readonly LocalPveIso[];
  /** Default `root@pam!localpve` and a random UUID. */
  readonly tokenId?: string;
  readonly tokenSecret?: string;
  /** Serve HTTPS with this key and certificate (PEM). */
  readonly tls?: { readonly key: string; readonly cert: string };
  readonly clock?: Clock;
  readonly clusterName?: string;
  /** Listen on this port (default 0: any free one). */
  readonly port?: number;
  /**
   * Keep the cluster's state (VM configs, snapshots, backups) in `<dataDir>/pve-state.json` across
   * restarts (`npm start`); the engine finds its disks of earlier runs in `dataDir`. Default false.
   */
  readonly persist?: boolean;
}

/** A request as it reached the server (for wire-format tests). */
export interface LocalPveRequest {
  readonly method: string;
  /** The path below `/api2/json`, as sent (still URL-encoded). */
  readonly path: string;
  /** The raw query string (without `?`). */
  readonly query: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
  readonly status: number;
}

export interface LocalPve {
  /** scheme://127.0.0.1:port (the adapter's `PVE_URL`). */
  readonly url: string;
  readonly tokenId: string;
  readonly tokenSecret: string;
  readonly cluster: PveCluster;
  /** Every request answered, oldest first. */
  readonly requests: LocalPveRequest[];
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json;charset=UTF-8';
const MAX_BODY = 1024 * 1024;

/** A reason phrase must be one line of visible ASCII. */
const reason = (message: string): string =>
  message
    .replace(/[\r\n]+/g, ' ')
    .replace(/[^\x20-\x7e]/g, '?')
    .trim()
    .slice(0, 512) || 'error';

function send(res: ServerResponse, status: number, message: string, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, reason(message), {
    'content-type': JSON_TYPE,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'max-age=0',
    pragma: 'no-cache',
    expires: new Date().toUTCString(),
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new PveApiError(413, 'Request Entity Too Large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Parameters of a form body or a query string (`+` and `%20` both a space, as CGI reads them). */
function formParams(text: string, into: Record<string, string>): void {
  for (const [k, v] of new URLSearchParams(text)) into[k] = v;
}

export async function startLocalPve(options: LocalPveOptions): Promise<LocalPve> {
  const clock = options.clock ?? systemClock;
  const tokenId = options.tokenId ?? 'root@pam!localpve';
  const tokenSecret = options.tokenSecret ?? randomUUID();
  const cluster = new PveCluster({
    engine: options.engine,
    dataDir: options.dataDir,
    nodes: options.nodes ?? ['pve1'],
    templates: options.templates ?? [],
    isos: options.isos ?? [],
    clock,
    clusterName: options.clusterName ?? 'localpve',
  });
  const stateFile = path.join(options.dataDir, 'pve-state.json');
  if (options.persist && existsSync(stateFile))
    cluster.restoreState(JSON.parse(readFileSync(stateFile, 'utf8')) as PersistedState);
  for (const t of options.templates ?? []) if (!cluster.vms.has(t.vmid)) await cluster.addTemplate(t);
  let saveQueued = false;
  let closed = false;
  const writeState = (): void => {
    const tmp = `${stateFile}.tmp`;
    writeFileSync(tmp, JSON.stringify(cluster.snapshotState()));
    renameSync(tmp, stateFile);
  };
  /** Saves the state once per turn of the event loop however many changes it saw. */
  const save = (): void => {
    if (!options.persist || saveQueued || closed) return;
    saveQueued = true;
    setImmediate(() => {
      saveQueued = false;
      if (!closed) writeState();
    });
  };
  cluster.tasks.onEnd = save;
  save();
  const requests: LocalPveRequest[] = [];
  const expectedAuth = `PVEAPIToken=${tokenId}=${tokenSecret}`;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const fullPath = q < 0 ? raw : raw.slice(0, q);
    const query = q < 0 ? '' : raw.slice(q + 1);
    const method = req.method ?? 'GET';
    let body = '';
    const record = (status: number): void => {
      requests.push({
        method,
        path: fullPath.replace(/^\/api2\/json/, ''),
        query,
        headers: req.headers,
        body,
        status,
      });
    };
    try {
      body = await readBody(req);
      if (!fullPath.startsWith('/api2/json/'))
        throw new PveApiError(501, `Method '${method} ${fullPath}' not implemented`);
      const apiPath = fullPath.slice('/api2/json'.length).replace(/\/+$/, '');
      const auth = req.headers.authorization;
      if (auth === undefined) throw new PveApiError(401, 'No ticket');
      if (auth !== expectedAuth) throw new PveApiError(401, 'invalid token value!');
      const found = findRoute(method, apiPath);
      if (found === null || found === 'method')
        throw new PveApiError(501, `Method '${method} ${apiPath}' not implemented`);
      const params: Record<string, string> = {};
      formParams(query, params);
      if (body !== '') {
        const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (type === 'application/json') {
          const json = JSON.parse(body) as Record<string, unknown>;
          for (const [k, v] of Object.entries(json))
            params[k] = typeof v === 'boolean' ? (v ? '1' : '0') : String(v as string | number);
        } else formParams(body, params);
      }
      Object.assign(params, found.pathParams);
      const data = await found.handler({ cluster, user: tokenId, params, certPem: options.tls?.cert ?? '' });
      record(200);
      if (method !== 'GET') save();
      send(res, 200, 'OK', { data: data ?? null });
    } catch (err) {
      const e =
        err instanceof PveApiError
          ? err
          : err instanceof SyntaxError
            ? new PveApiError(400, 'Parameter verification failed.', { body: 'invalid JSON' })
            : new PveApiError(500, (err as Error).message || 'internal error');
      record(e.status);
      send(res, e.status, e.message, e.errors ? { data: null, errors: e.errors } : { data: null });
    }
  };

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    void handle(req, res);
  };
  const server = options.tls
    ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, listener)
    : createHttpServer(listener);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    tokenId,
    tokenSecret,
    cluster,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await cluster.tasks.settle();
      closed = true;
      if (options.persist) writeState();
      await options.engine.close();
    },
  };
}
