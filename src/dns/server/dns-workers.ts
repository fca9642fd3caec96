/**
 * Multi-core DNS: a supervisor that runs the DNS server in N `node:cluster` workers sharing one
 * host:port. Call it in the primary process only:
 *
 *   const dns = await startDnsWorkers({
 *     host: '::', port: 53,
 *     workerEntry: fileURLToPath(new URL('./my-dns-worker.ts', import.meta.url)),
 *     zoneOptions: { databaseUrl },   // JSON, handed to loadZones
 *     workers: 2,                     // default: availableParallelism()
 *     rrl: { rate: 20 },              // plain data only (no `now`)
 *   });
 *   dns.broadcast({ reload: 42 });   // → every worker's zones.onMessage (e.g. "zone 42 changed")
 *   await dns.close();               // stops every worker (closes sockets, zones.close()), no restart
 *
 * Zones: each worker builds its own ZoneStore. `workerEntry` is the script each worker runs: a few
 * lines that call `runDnsWorker(loadZones)` (index.ts) with the app's
 * `loadZones(options, worker): DnsWorkerZones | Promise<DnsWorkerZones>` (see below), so the data
 * plane never imports app code. loadZones keeps its store current itself (bus subscription,
 * polling) and may hand back a QueryStats to count in, and its own handler, limiter and transfer
 * handler (default: a plain handler over the store and the spec's RRL options). `worker.index` is 0..workers-1; a replacement gets the index
 * of the worker it replaces (so "index 0 writes the snapshot file" stays true across restarts).
 *
 * Contract:
 * - `startDnsWorkers` resolves once every worker listens on UDP and TCP; it rejects (and stops the
 *   workers already started) if any worker fails to start (loadZones error, EADDRINUSE, ...).
 * - Port 0 gives all workers the same free port (cluster shares handles by address:port).
 * - A worker that dies after start is replaced; restarts back off exponentially (up to
 *   MAX_RESTART_DELAY_MS) while workers keep dying young, so a crash loop does not spin a core.
 * - UDP: Node 20's dgram has no `reusePort`; cluster workers share one UDP socket handle (the
 *   kernel hands each datagram to whichever worker reads first; the primary does not relay UDP).
 *   With `nativeUdp` (and the addon built) each worker has its own SO_REUSEPORT socket instead,
 *   and while RRL is on the port steers by source network (one network → one worker), so each
 *   worker's limiter allows the node's whole rate; on the shared socket each allows rate/workers.
 *   TCP connections are accepted by the primary and passed round-robin (cluster's default).
 * - Workers get the primary's execArgv unless `execArgv` is given (they must load .ts files).
 * - `request(message)` asks every live worker's `zones.onRequest` and gathers the replies (metrics
 *   scrapes); a worker that does not answer within the timeout is listed without a reply.
 * - `setupPrimary` is cluster-global: don't fork other cluster workers from the same primary.
 */
import cluster from 'node:cluster';
import type { Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { TransferHandler } from '../transfer/transfer-handler.ts';
import type { ZoneStore } from '../zone/zone-store.ts';
import type { DnsHandler, DnsSlotHandler, ServerLimits } from './listener-options.ts';
import type { QueryStats } from './query-stats.ts';
import type { ResponseRateLimiter, RrlOptions } from './response-rate-limit.ts';

/** Which worker `loadZones` runs in: 0..workers-1, kept by a replacement. */
export interface DnsWorkerIdentity {
  readonly index: number;
  /** How many workers share the port. */
  readonly workers: number;
  /**
   * The part of the node's response rate this worker's limiter allows: 1 when the port steers by
   * source network (native path: a client network reaches one worker only), 1/workers otherwise
   * (node:dgram: the workers share one socket and take turns, so each sees about 1/workers).
   */
  readonly rrlShare: number;
}

/** What a worker's `loadZones(options, worker)` returns. */
export interface DnsWorkerZones {
  store: ZoneStore;
  stats?: QueryStats;
  /** The message handler to serve; default `createMessageHandler(store)`. */
  handler?: DnsHandler;
  /** Its UDP batch entry (MessageHandlers.handleSlot); default: over `handler`. */
  slotHandler?: DnsSlotHandler | null;
  /** A limiter (or null for none) instead of one built from the spec's `rrl` options. */
  rrl?: ResponseRateLimiter | null;
  /** Zone transfers out over TCP. */
  transfer?: TransferHandler;
  /** Receives what the primary `broadcast`s. */
  onMessage?(message: unknown): void;
  /** Answers the primary's `request` (plain data, sent over IPC). */
  onRequest?(message: unknown): unknown;
  /** Called on shutdown, after the sockets are closed (unsubscribe, flush stats). */
  close?(): void | Promise<void>;
}

/** A worker's zone loading, handed to runDnsWorker by the worker's entry script. */
export type DnsWorkerZoneLoader = (
  options: unknown,
  worker: DnsWorkerIdentity,
) => DnsWorkerZones | Promise<DnsWorkerZones>;

export interface DnsWorkersOptions {
  host: string;
  port: number;
  /** Path of the script each worker runs (it calls runDnsWorker); relative paths: to the cwd. */
  workerEntry: string;
  /** JSON-serialisable; passed to `loadZones` as is. */
  zoneOptions?: unknown;
  /** Default `availableParallelism()`. */
  workers?: number;
  /** RRL options (plain data), or null/absent for none: one rate per node (see DnsWorkerIdentity.rrlShare). */
  rrl?: Omit<RrlOptions, 'now'> | null;
  limits?: Partial<ServerLimits>;
  /** See DnsServerOptions.nativeUdp: per-worker SO_REUSEPORT sockets with batched syscalls. */
  nativeUdp?: boolean;
  /** Node flags for the workers; default the primary's (must load .ts, e.g. `--import tsx`). */
  execArgv?: string[];
  /** Told when a worker listens and when one exits (logging). */
  onWorkerEvent?(event: DnsWorkerEvent): void;
}

export type DnsWorkerEvent =
  | { type: 'ready'; index: number; pid: number | undefined }
  | {
      type: 'exit';
      index: number;
      pid: number | undefined;
      code: number | null;
      signal: string | null;
      /** Milliseconds until the replacement is forked; null: none (stopping, or died while starting). */
      restartInMs: number | null;
    };

/** One live worker's answer to `request`; `reply` is absent when it did not answer in time. */
export interface DnsWorkerReply {
  /** Unique per forked process (cluster worker id): tells a replacement from the one it replaced. */
  readonly id: number;
  readonly index: number;
  readonly reply?: unknown;
}

export interface DnsWorkers {
  readonly port: number;
  /** Workers currently alive (tests, metrics). */
  workerCount(): number;
  /** Replacements forked since start (tests, metrics). */
  restartCount(): number;
  /** Index and pid of every live worker. */
  workers(): { index: number; pid: number | undefined }[];
  broadcast(message: unknown): void;
  /** Sends `message` to every live worker's `onRequest`; resolves after all replied or `timeoutMs`. */
  request(message: unknown, timeoutMs: number): Promise<DnsWorkerReply[]>;
  close(): Promise<void>;
}

/** Serialised into the worker's environment under WORKER_SPEC_ENV. */
export interface DnsWorkerSpec {
  host: string;
  port: number;
  zoneOptions: unknown;
  rrl: Omit<RrlOptions, 'now'> | null;
  limits: Partial<ServerLimits>;
  nativeUdp: boolean;
  /** How many workers share the port. */
  workers: number;
}

/** IPC messages between primary and worker (plain objects tagged with `dnsWorker`). */
export type DnsWorkerMessage =
  | { dnsWorker: 'ready'; port: number }
  | { dnsWorker: 'failed'; error: string }
  | { dnsWorker: 'stop' }
  | { dnsWorker: 'user'; message: unknown }
  | { dnsWorker: 'request'; id: number; message: unknown }
  | { dnsWorker: 'reply'; id: number; reply: unknown };

export const WORKER_SPEC_ENV = 'DNS_WORKER_SPEC';
/** The worker's index (0..workers-1), beside the spec in its environment. */
export const WORKER_INDEX_ENV = 'DNS_WORKER_INDEX';
/** A worker that lived shorter than this counts as dying young (restart backs off). */
export const YOUNG_DEATH_MS = 5_000;
export const MIN_RESTART_DELAY_MS = 100;
export const MAX_RESTART_DELAY_MS = 10_000;
/** After `close()`, a worker that has not exited by then is killed. */
export const STOP_GRACE_MS = 5_000;

function isWorkerMessage(m: unknown): m is DnsWorkerMessage {
  return typeof m === 'object' && m !== null && typeof (m as { dnsWorker?: unknown }).dnsWorker === 'string';
}

export async function startDnsWorkers(opts: DnsWorkersOptions): Promise<DnsWorkers> {
  if (!cluster.isPrimary) throw new Error('startDnsWorkers must run in the primary process');
  const count = Math.max(1, Math.floor(opts.workers ?? availableParallelism()));
  const spec: DnsWorkerSpec = {
    host: opts.host,
    port: opts.port,
    zoneOptions: opts.zoneOptions ?? null,
    rrl: opts.rrl ?? null,
    limits: opts.limits ?? {},
    nativeUdp: opts.nativeUdp ?? false,
    workers: count,
  };
  cluster.setupPrimary({
    exec: opts.workerEntry,
    args: [],
    execArgv: opts.execArgv ?? process.execArgv,
    silent: false,
  });

  const alive = new Set<Worker>();
  const indexOf = new WeakMap<Worker, number>();
  const requests = new Map<number, { replies: Map<number, unknown>; waiting: Set<number>; done(): void }>();
  let nextRequestId = 1;
  let stopping = false;
  let restarts = 0;
  let restartDelay = MIN_RESTART_DELAY_MS;
  let boundPort = opts.port;
  const timers = new Set<NodeJS.Timeout>();
  /** Workers that reported ready (they listen for 'stop'; a starting one may not yet). */
  const listening = new WeakSet<Worker>();

  /** Forks one worker; resolves with its port once it listens, rejects if it fails first. */
  function fork(index: number): Promise<number> {
    // Every worker asks for the same port as given: cluster shares handles keyed by the asked
    // port, so port 0 too yields one shared port (asking for the bound port would not share).
    const env = { [WORKER_SPEC_ENV]: JSON.stringify(spec), [WORKER_INDEX_ENV]: String(index) };
    const w = cluster.fork(env);
    const born = Date.now();
    alive.add(w);
    indexOf.set(w, index);
    // IPC errors (EPIPE to a dying worker) are followed by 'exit', which is what we act on.
    w.on('error', () => undefined);
    return new Promise((resolve, reject) => {
      let started = false;
      w.on('message', (m: unknown) => {
        if (!isWorkerMessage(m)) return;
        if (m.dnsWorker === 'ready') {
          started = true;
          listening.add(w);
          opts.onWorkerEvent?.({ type: 'ready', index, pid: w.process.pid });
          resolve(m.port);
        } else if (m.dnsWorker === 'reply') {
          const pending = requests.get(m.id);
          if (pending?.waiting.delete(w.id)) {
            pending.replies.set(w.id, m.reply);
            if (pending.waiting.size === 0) pending.done();
          }
        } else if (m.dnsWorker === 'failed') {
          reject(new Error(`dns worker failed to start: ${m.error}`));
        }
      });
      w.on('exit', (code, signal) => {
        alive.delete(w);
        for (const pending of requests.values()) {
          if (pending.waiting.delete(w.id) && pending.waiting.size === 0) pending.done();
        }
        const event = { type: 'exit', index, pid: w.process.pid, code, signal } as const;
        if (!started) {
          opts.onWorkerEvent?.({ ...event, restartInMs: null });
          reject(new Error(`dns worker exited during start (code ${code}, signal ${signal})`));
          return;
        }
        if (stopping) {
          opts.onWorkerEvent?.({ ...event, restartInMs: null });
          return;
        }
        restartDelay =
          Date.now() - born < YOUNG_DEATH_MS
            ? Math.min(restartDelay * 2, MAX_RESTART_DELAY_MS)
            : MIN_RESTART_DELAY_MS;
        opts.onWorkerEvent?.({ ...event, restartInMs: restartDelay });
        const t = setTimeout(() => {
          timers.delete(t);
          if (stopping) return;
          restarts++;
          // A replacement that fails to start dies and is replaced in turn (with backoff).
          fork(index).catch(() => undefined);
        }, restartDelay);
        timers.add(t);
      });
    });
  }

  function stopAll(): Promise<void> {
    stopping = true;
    for (const t of timers) clearTimeout(t);
    timers.clear();
    const exits = [...alive].map(
      (w) =>
        new Promise<void>((done) => {
          if (w.isDead()) return done();
          const kill = setTimeout(() => w.process.kill('SIGKILL'), STOP_GRACE_MS);
          w.once('exit', () => {
            clearTimeout(kill);
            done();
          });
          // A worker still starting has no 'stop' listener yet; SIGTERM's default ends it.
          if (!listening.has(w) || !w.isConnected()) w.process.kill('SIGTERM');
          else w.send({ dnsWorker: 'stop' } satisfies DnsWorkerMessage);
        }),
    );
    return Promise.all(exits).then(() => undefined);
  }

  try {
    // The first worker alone: a start error (loadZones, EADDRINUSE) then costs one fork.
    boundPort = await fork(0);
    await Promise.all(Array.from({ length: count - 1 }, (_, i) => fork(i + 1)));
  } catch (err) {
    await stopAll();
    throw err;
  }

  let closing: Promise<void> | null = null;
  return {
    port: boundPort,
    workerCount: () => alive.size,
    restartCount: () => restarts,
    workers: () => [...alive].map((w) => ({ index: indexOf.get(w) ?? -1, pid: w.process.pid })),
    broadcast(message) {
      for (const w of alive) {
        if (w.isConnected()) w.send({ dnsWorker: 'user', message } satisfies DnsWorkerMessage);
      }
    },
    request(message, timeoutMs) {
      const id = nextRequestId++;
      // Only workers that listen have a message handler; one still starting is listed unanswered.
      const asked = [...alive].filter((w) => listening.has(w) && w.isConnected());
      return new Promise<DnsWorkerReply[]>((resolve) => {
        const pending = {
          replies: new Map<number, unknown>(),
          waiting: new Set(asked.map((w) => w.id)),
          done() {
            clearTimeout(timer);
            requests.delete(id);
            resolve(
              // Those alive now: a worker that died meanwhile is left out (the caller sees it gone).
              [...alive].map((w) => ({
                id: w.id,
                index: indexOf.get(w) ?? -1,
                ...(pending.replies.has(w.id) ? { reply: pending.replies.get(w.id) } : {}),
              })),
            );
          },
        };
        const timer = setTimeout(() => pending.done(), timeoutMs);
        requests.set(id, pending);
        if (pending.waiting.size === 0) return pending.done();
        for (const w of asked) w.send({ dnsWorker: 'request', id, message } satisfies DnsWorkerMessage);
      });
    },
    close() {
      closing ??= stopAll();
      return closing;
    },
  };
}
