/**
 * A small client of the QEMU Machine Protocol (docs/interop/qmp-spec.rst): JSON objects, one a
 * line, over a unix socket. The server greets (`{"QMP": {...}}`), the client negotiates with
 * `qmp_capabilities`, then sends `{"execute", "arguments", "id"}` and reads `{"return", "id"}` or
 * `{"error": {"class", "desc"}, "id"}`; asynchronous `{"event", "data", "timestamp"}` lines come
 * in between (SHUTDOWN, POWERDOWN, STOP, RESUME, JOB_STATUS_CHANGE, ...).
 *
 * Here QEMU connects to us: the engine listens on the socket and starts QEMU with a client
 * chardev (`-chardev socket,path=...` without `server`), so no connect is retried while QEMU
 * starts; `acceptQmp` answers the negotiated client.
 */
import { EventEmitter } from 'node:events';
import type net from 'node:net';

export interface QmpEvent {
  readonly event: string;
  readonly data: Record<string, unknown>;
  readonly timestamp: { readonly seconds: number; readonly microseconds: number };
}

/** A command QEMU refused: `class` is QMP's error class (`GenericError`, `DeviceNotFound`, ...). */
export class QmpError extends Error {
  constructor(
    readonly errorClass: string,
    readonly desc: string,
    readonly command: string,
  ) {
    super(`${command}: ${desc}`);
  }
}

interface Pending {
  readonly command: string;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

export class QmpClient {
  private readonly events = new EventEmitter();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private buffer = '';
  private closedError: Error | null = null;
  private greeting: ((line: Record<string, unknown>) => void) | null = null;

  private constructor(private readonly socket: net.Socket) {
    this.events.setMaxListeners(0);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.onData(chunk));
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(new Error('QMP connection closed')));
  }

  /** Wraps a connected socket: waits for the greeting and negotiates capabilities. */
  static async open(socket: net.Socket, timeoutMs: number): Promise<QmpClient> {
    const client = new QmpClient(socket);
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        client.greeting = (line) => {
          if ('QMP' in line) resolve();
          else reject(new Error(`unexpected QMP greeting: ${JSON.stringify(line)}`));
        };
        client.events.once('closed', (err: Error) => reject(err));
      }),
      timeoutMs,
      'QMP greeting',
    );
    await client.execute('qmp_capabilities', undefined, timeoutMs);
    return client;
  }

  get closed(): boolean {
    return this.closedError !== null;
  }

  /** Runs a command; resolves with its `return`, rejects with QmpError or on timeout. */
  execute<T = unknown>(command: string, args?: Record<string, unknown>, timeoutMs = 30_000): Promise<T> {
    if (this.closedError !== null) return Promise.reject(this.closedError);
    const id = this.nextId++;
    const message = { execute: command, ...(args === undefined ? {} : { arguments: args }), id };
    const answer = new Promise<T>((resolve, reject) => {
      this.pending.set(id, { command, resolve: resolve as (v: unknown) => void, reject });
    });
    this.socket.write(`${JSON.stringify(message)}\n`);
    return withTimeout(answer, timeoutMs, `QMP ${command}`).finally(() => this.pending.delete(id));
  }

  /** Calls the listener for every event; answers a function that removes it. */
  onEvent(listener: (e: QmpEvent) => void): () => void {
    this.events.on('event', listener);
    return () => this.events.off('event', listener);
  }

  /** Resolves with the first event matching, rejects on timeout or when the connection closes. */
  waitEvent(match: (e: QmpEvent) => boolean, timeoutMs: number, what: string): Promise<QmpEvent> {
    let off = (): void => {};
    const found = new Promise<QmpEvent>((resolve, reject) => {
      const onEvent = (e: QmpEvent): void => {
        if (match(e)) resolve(e);
      };
      const onClosed = (err: Error): void => reject(err);
      this.events.on('event', onEvent);
      this.events.once('closed', onClosed);
      off = () => {
        this.events.off('event', onEvent);
        this.events.off('closed', onClosed);
      };
      if (this.closedError !== null) reject(this.closedError);
    });
    return withTimeout(found, timeoutMs, what).finally(() => off());
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    for (let nl = this.buffer.indexOf('\n'); nl >= 0; nl = this.buffer.indexOf('\n')) {
      const line = this.buffer.slice(0, nl).trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (line !== '') this.onLine(line);
    }
  }

  private onLine(text: string): void {
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    if (this.greeting !== null) {
      const greet = this.greeting;
      this.greeting = null;
      greet(line);
      return;
    }
    if (typeof line.event === 'string') {
      this.events.emit('event', {
        event: line.event,
        data: (line.data ?? {}) as Record<string, unknown>,
        timestamp: line.timestamp as QmpEvent['timestamp'],
      });
      return;
    }
    const pending = typeof line.id === 'number' ? this.pending.get(line.id) : undefined;
    if (pending === undefined) return;
    this.pending.delete(line.id as number);
    if ('error' in line) {
      const err = line.error as { class?: string; desc?: string };
      pending.reject(new QmpError(err.class ?? 'GenericError', err.desc ?? 'error', pending.command));
    } else {
      pending.resolve(line.return);
    }
  }

  private fail(err: Error): void {
    if (this.closedError !== null) return;
    this.closedError = err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    this.events.emit('closed', err);
  }
}

export function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
