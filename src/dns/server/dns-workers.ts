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
  const spec = workerSpec(opts);
  cluster.setupPrimary({
    exec: opts.workerEntry,
    args: [],
    execArgv: opts.execArgv ?? process.execArgv,
    silent: false,
  });
  const supervisor = new WorkerSupervisor(spec, opts);
  const port = await supervisor.start();
  return {
    port,
    workerCount: () => supervisor.workerCount(),
    restartCount: () => supervisor.restartCount(),
    workers: () => supervisor.workers(),
    broadcast: (message) => supervisor.broadcast(message),
    request: (message, timeoutMs) => supervisor.request(message, timeoutMs),
    close: () => supervisor.close(),
  };
}

function workerSpec(opts: DnsWorkersOptions): DnsWorkerSpec {
  return {
    host: opts.host,
    port: opts.port,
    zoneOptions: opts.zoneOptions ?? null,
    rrl: opts.rrl ?? null,
    limits: opts.limits ?? {},
    nativeUdp: opts.nativeUdp ?? false,
    workers: Math.max(1, Math.floor(opts.workers ?? availableParallelism())),
  };
}

/** A `request` waiting for the workers' replies. */
interface PendingRequest {
  /** By cluster worker id. */
  readonly replies: Map<number, unknown>;
  /** Cluster ids of the workers yet to answer. */
  readonly waiting: Set<number>;
  done(): void;
}

/** The primary's side: forks the workers, replaces those that die, relays messages, stops them. */
class WorkerSupervisor {
  private readonly alive = new Set<Worker>();
  private readonly indexOf = new WeakMap<Worker, number>();
  /** Workers that reported ready (they listen for 'stop'; a starting one may not yet). */
  private readonly listening = new WeakSet<Worker>();
  private readonly requests = new Map<number, PendingRequest>();
  /** Pending restarts. */
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextRequestId = 1;
  private stopping = false;
  private closing: Promise<void> | null = null;
  private restarts = 0;
  private restartDelay = MIN_RESTART_DELAY_MS;

  constructor(
    private readonly spec: DnsWorkerSpec,
    private readonly opts: Pick<DnsWorkersOptions, 'onWorkerEvent'>,
  ) {}

  /** Forks every worker; resolves with the shared port once all listen, or stops them and rejects. */
  async start(): Promise<number> {
    try {
      // All at once: each worker's start (loading its code, its zones) runs beside the others', so
      // a node of N workers is ready about as soon as one worker is, not N times later.
      const ports = await Promise.all(Array.from({ length: this.spec.workers }, (_, i) => this.fork(i)));
      return ports[0]!;
    } catch (err) {
      await this.stopAll();
      throw err;
    }
  }

  workerCount(): number {
    return this.alive.size;
  }

  restartCount(): number {
    return this.restarts;
  }

  workers(): { index: number; pid: number | undefined }[] {
    return [...this.alive].map((w) => ({ index: this.indexOf.get(w) ?? -1, pid: w.process.pid }));
  }

  broadcast(message: unknown): void {
    for (const w of this.alive) {
      if (w.isConnected()) w.send({ dnsWorker: 'user', message } satisfies DnsWorkerMessage);
    }
  }

  request(message: unknown, timeoutMs: number): Promise<DnsWorkerReply[]> {
    const id = this.nextRequestId++;
    // Only workers that listen have a message handler; one still starting is listed unanswered.
    const asked = [...this.alive].filter((w) => this.listening.has(w) && w.isConnected());
    return new Promise<DnsWorkerReply[]>((resolve) => {
      const pending: PendingRequest = {
        replies: new Map<number, unknown>(),
        waiting: new Set(asked.map((w) => w.id)),
        done: () => {
          clearTimeout(timer);
          this.requests.delete(id);
          resolve(this.repliesOfAlive(pending.replies));
        },
      };
      const timer = setTimeout(() => pending.done(), timeoutMs);
      this.requests.set(id, pending);
      if (pending.waiting.size === 0) return pending.done();
      for (const w of asked) w.send({ dnsWorker: 'request', id, message } satisfies DnsWorkerMessage);
    });
  }

  close(): Promise<void> {
    this.closing ??= this.stopAll();
    return this.closing;
  }

  /** Forks one worker; resolves with its port once it listens, rejects if it fails first. */
  private fork(index: number): Promise<number> {
    // Every worker asks for the same port as given: cluster shares handles keyed by the asked
    // port, so port 0 too yields one shared port (asking for the bound port would not share).
    const env = { [WORKER_SPEC_ENV]: JSON.stringify(this.spec), [WORKER_INDEX_ENV]: String(index) };
    const w = cluster.fork(env);
    const born = Date.now();
    this.alive.add(w);
    this.indexOf.set(w, index);
    // IPC errors (EPIPE to a dying worker) are followed by 'exit', which is what we act on.
    w.on('error', () => undefined);
    return new Promise((resolve, reject) => {
      w.on('message', (m: unknown) => this.onMessage(w, index, m, resolve, reject));
      w.on('exit', (code, signal) => this.onExit(w, index, born, code, signal, reject));
    });
  }

  private onMessage(
    w: Worker,
    index: number,
    m: unknown,
    started: (port: number) => void,
    failed: (error: Error) => void,
  ): void {
    if (!isWorkerMessage(m)) return;
    if (m.dnsWorker === 'ready') {
      this.listening.add(w);
      this.opts.onWorkerEvent?.({ type: 'ready', index, pid: w.process.pid });
      started(m.port);
    } else if (m.dnsWorker === 'reply') {
      this.takeReply(w, m.id, m.reply);
    } else if (m.dnsWorker === 'failed') {
      failed(new Error(`dns worker failed to start: ${m.error}`));
    }
  }

  private onExit(
    w: Worker,
    index: number,
    born: number,
    code: number | null,
    signal: string | null,
    failed: (error: Error) => void,
  ): void {
    this.alive.delete(w);
    this.stopWaitingFor(w);
    const event = { type: 'exit', index, pid: w.process.pid, code, signal } as const;
    if (!this.listening.has(w)) {
      this.opts.onWorkerEvent?.({ ...event, restartInMs: null });
      // Its `failed` message, if it sent one, may still be unread: the channel's end comes after it.
      afterDisconnect(w, () =>
        failed(new Error(`dns worker exited during start (code ${code}, signal ${signal})`)),
      );
      return;
    }
    if (this.stopping) {
      this.opts.onWorkerEvent?.({ ...event, restartInMs: null });
      return;
    }
    this.restartDelay = nextRestartDelay(this.restartDelay, Date.now() - born);
    this.opts.onWorkerEvent?.({ ...event, restartInMs: this.restartDelay });
    this.restartLater(index, this.restartDelay);
  }

  private restartLater(index: number, delayMs: number): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (this.stopping) return;
      this.restarts++;
      // A replacement that fails to start dies and is replaced in turn (with backoff).
      this.fork(index).catch(() => undefined);
    }, delayMs);
    this.timers.add(t);
  }

  private takeReply(w: Worker, requestId: number, reply: unknown): void {
    const pending = this.requests.get(requestId);
    if (!pending?.waiting.delete(w.id)) return;
    pending.replies.set(w.id, reply);
    if (pending.waiting.size === 0) pending.done();
  }

  /** A dead worker answers nothing: a request left waiting only for it is done. */
  private stopWaitingFor(w: Worker): void {
    for (const pending of this.requests.values()) {
      if (pending.waiting.delete(w.id) && pending.waiting.size === 0) pending.done();
    }
  }

  /** Those alive now: a worker that died meanwhile is left out (the caller sees it gone). */
  private repliesOfAlive(replies: ReadonlyMap<number, unknown>): DnsWorkerReply[] {
    return [...this.alive].map((w) => ({
      id: w.id,
      index: this.indexOf.get(w) ?? -1,
      ...(replies.has(w.id) ? { reply: replies.get(w.id) } : {}),
    }));
  }

  private async stopAll(): Promise<void> {
    this.stopping = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.all([...this.alive].map((w) => stopWorker(w, this.listening.has(w))));
  }
}

/**
 * The next restart's delay: doubled while workers die young (a crash loop must not spin a core),
 * back to the least after a worker lived long.
 */
function nextRestartDelay(previousMs: number, livedMs: number): number {
  return livedMs < YOUNG_DEATH_MS ? Math.min(previousMs * 2, MAX_RESTART_DELAY_MS) : MIN_RESTART_DELAY_MS;
}

/** Runs `then` once the worker's IPC channel is closed (at once if it is). */
function afterDisconnect(w: Worker, then: () => void): void {
  if (w.isConnected()) w.once('disconnect', then);
  else then();
}

/** Asks a worker to stop, killing it after STOP_GRACE_MS; resolves once it exited and its channel closed. */
function stopWorker(w: Worker, listening: boolean): Promise<void> {
  return new Promise<void>((done) => {
    if (w.isDead()) return done();
    const kill = setTimeout(() => w.process.kill('SIGKILL'), STOP_GRACE_MS);
    w.once('exit', () => {
      clearTimeout(kill);
      // cluster lists a worker that exited until its channel is closed too.
      afterDisconnect(w, done);
    });
    // A worker still starting has no 'stop' listener yet; SIGTERM's default ends it.
    if (!listening || !w.isConnected()) w.process.kill('SIGTERM');
    else w.send({ dnsWorker: 'stop' } satisfies DnsWorkerMessage);
  });
}
