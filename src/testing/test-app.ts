import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startNode, type RunningNode } from '../apps/node.ts';
import type { Clock } from '../kernel/clock.ts';
import { loadConfig } from '../kernel/config/load-config.ts';
import { CONFIG_SECTIONS } from '../apps/platform-modules.ts';
import { createLogger } from '../kernel/log/logger.ts';

export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (for malformed-JSON tests). */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  readonly url: string;
  readonly node: RunningNode;
  /** The PostgreSQL schema of this app (DATABASE_SCHEMA for processes that share it), when on PostgreSQL. */
  readonly databaseSchema: string | undefined;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /**
   * Starts another process's worth of the product (e.g. `ROLE=checker`) on this app's database
   * schema and bus prefix, env merged over this app's. Needs DATABASE_URL (the embedded database
   * is private to one node); stop peers before close().
   */
  startPeer(env?: Record<string, string>): Promise<RunningNode>;
  /**
   * Stops this node and starts another on the same data (schema or DATA_DIR; the embedded database
   * needs `persistent`), env merged over this app's; this app must not be used after.
   */
  restart(options?: { env?: Record<string, string>; logSink?: (line: string) => void }): Promise<TestApp>;
  /** Signs a user of signUp() in again (a moved clock expires tokens); answers an access token. */
  signIn(email: string): Promise<string>;
  /** Registers a fresh user and answers an access token. */
  signUp(email?: string): Promise<{ token: string; email: string; refreshToken: string }>;
  close(): Promise<void>;
}

/**
 * Starts the product as `npm start` does, on free ports, against the embedded database (in
 * memory) — or, when DATABASE_URL / REDIS_URL are set, against real PostgreSQL in a fresh schema
 * and real Redis under a fresh key prefix, so test files run side by side without meeting.
 */
export async function startTestApp(
  options: {
    clock?: Clock;
    env?: Record<string, string>;
    /** Receives every log line (JSON) instead of stdout; set LOG_LEVEL in `env` to hear them. */
    logSink?: (line: string) => void;
    /** Keep the embedded database on disk (DATA_DIR) so restart() finds it again. */
    persistent?: boolean;
    /** How outbound requests (webhooks) resolve names, instead of the system resolver. */
    resolve?: (hostname: string) => Promise<string[]>;
  } = {},
): Promise<TestApp> {
  const id = randomBytes(6).toString('hex');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dns-test-'));
  const env: Record<string, string | undefined> = {
    API_HOST: '127.0.0.1',
    API_PORT: '0',
    DNS_HOST: '127.0.0.1',
    DNS_PORT: '0',
    // The game edge on a free port, never the game's own (25565).
    EDGE_HOST: '127.0.0.1',
    EDGE_PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    AUTH_SECRET: randomBytes(32).toString('hex'),
    DATABASE_URL: process.env.DATABASE_URL,
    REDIS_URL: process.env.REDIS_URL,
    // In-process DNS (node.dns), whatever the database: tests ask for workers explicitly.
    DNS_WORKERS: '0',
    // No HTTP-01 listener unless a test asks for one (on a free port).
    ACME_HTTP_PORT: '0',
    // No single-node Ceph gateway of its own: object storage tests give theirs (object-storage-fixture).
    OBJECT_STORAGE_LOCAL: 'off',
    // No local QEMU cluster (VMs under TCG): the compute tests start the PVE server they need.
    COMPUTE_LOCAL: 'off',
    ...options.env,
  };
  const config = loadConfig(env, CONFIG_SECTIONS);
  const schema = config.databaseUrl !== null ? `test_${id}` : undefined;
  const runtimeOptions = {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.resolve ? { outboundResolve: options.resolve } : {}),
    inMemoryDatabase: options.persistent !== true,
    ...(schema !== undefined ? { databaseSchema: schema } : {}),
    busPrefix: `test:${id}:`,
  };
  let users = 0;

  const boot = async (
    nodeEnv: Record<string, string | undefined>,
    sink: ((line: string) => void) | undefined,
  ): Promise<TestApp> => {
    const nodeConfig = loadConfig(nodeEnv, CONFIG_SECTIONS);
    const logger = createLogger(
      nodeConfig.logLevel,
      sink === undefined ? undefined : { write: (line) => sink(line) },
    );
    const node = await startNode(nodeConfig, logger, runtimeOptions);
    const url = node.apiUrl!;

    const request = async <T>(
      method: string,
      p: string,
      o: RequestOptions = {},
    ): Promise<TestResponse<T>> => {
      const headers: Record<string, string> = { ...o.headers };
      let body: string | undefined;
      if (o.rawBody !== undefined) body = o.rawBody;
      else if (o.body !== undefined) body = JSON.stringify(o.body);
      if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
        headers['content-type'] = 'application/json';
      }
      if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`;
      const res = await fetch(url + p, { method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text === '' ? null : JSON.parse(text);
      } catch {
        // not JSON (zone file export): keep the text
      }
      return { status: res.status, headers: res.headers, body: parsed as T, text };
    };

    return {
      url,
      node,
      databaseSchema: schema,
      request,
      async startPeer(peerEnv = {}) {
        if (schema === undefined) throw new Error('startPeer needs DATABASE_URL');
        const peerConfig = loadConfig(
          { ...nodeEnv, API_PORT: '0', DNS_PORT: '0', EDGE_PORT: '0', ...peerEnv },
          CONFIG_SECTIONS,
        );
        return startNode(peerConfig, createLogger(peerConfig.logLevel), runtimeOptions);
      },
      async restart(again = {}) {
        if (schema === undefined && options.persistent !== true)
          throw new Error('restart needs `persistent` or DATABASE_URL');
        await node.stop();
        return boot({ ...nodeEnv, ...again.env }, again.logSink);
      },
      async signIn(email) {
        const login = await request('POST', '/api/v1/auth/login', {
          body: { email, password: 'correct horse battery' },
        });
        if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
        return (login.body as { access_token: string }).access_token;
      },
      async signUp(email = `user${++users}-${id}@example.com`) {
        const password = 'correct horse battery';
        const reg = await request('POST', '/api/v1/auth/register', { body: { email, password } });
        if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${reg.text}`);
        const login = await request('POST', '/api/v1/auth/login', { body: { email, password } });
        if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
        const tokens = login.body as { access_token: string; refresh_token: string };
        return { token: tokens.access_token, refreshToken: tokens.refresh_token, email };
      },
      async close() {
        await node.stop();
        if (schema !== undefined && config.databaseUrl !== null) {
          const client = new pg.Client({ connectionString: config.databaseUrl });
          await client.connect();
          await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await client.end();
        }
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  };
  return boot(env, options.logSink);
}
