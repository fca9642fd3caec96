/**
 * The main of one DNS cluster worker (forked by dns-workers.ts). The worker's entry script, which
 * the supervisor is given as `workerEntry`, calls runDnsWorker with the app's zone loader; the data
 * plane imports no app code. Reads its DnsWorkerSpec from the environment, loads zones, starts the
 * server, reports `ready` (or `failed`) to the primary, and on `stop` closes the sockets, then the
 * zones, then exits 0. If the primary goes away, cluster exits this worker.
 */
import cluster from 'node:cluster';
import { startDnsServer } from './dns-server.ts';
import type { DnsServer } from './dns-server.ts';
import { WORKER_INDEX_ENV, WORKER_SPEC_ENV } from './dns-workers.ts';
import type {
  DnsWorkerIdentity,
  DnsWorkerMessage,
  DnsWorkerSpec,
  DnsWorkerZoneLoader,
} from './dns-workers.ts';
import { createMessageHandler } from './handle-message.ts';
import { loadUdpBatchAddon } from './udp-batch-native.ts';

function send(m: DnsWorkerMessage): void {
  process.send?.(m);
}

async function main(loadZones: DnsWorkerZoneLoader): Promise<void> {
  if (!cluster.isWorker) throw new Error('runDnsWorker runs only in a cluster worker');
  const spec = JSON.parse(process.env[WORKER_SPEC_ENV] ?? 'null') as DnsWorkerSpec | null;
  if (spec === null) throw new Error(`${WORKER_SPEC_ENV} is not set`);
  const workers = spec.workers;
  // On the native path each worker has its own socket and the port can steer by source network,
  // so one worker sees all of a client network's queries: its limiter allows the node's rate.
  const steerable = workers > 1 && spec.nativeUdp && loadUdpBatchAddon() !== null;
  const identity: DnsWorkerIdentity = {
    index: Number(process.env[WORKER_INDEX_ENV] ?? '0'),
    workers,
    rrlShare: steerable || workers <= 1 ? 1 : 1 / workers,
  };
  const zones = await loadZones(spec.zoneOptions, identity);
  const rrl =
    zones.rrl !== undefined
      ? zones.rrl
      : spec.rrl === null
        ? null
        : { ...spec.rrl, rate: spec.rrl.rate * identity.rrlShare };
  // Steered only while rate limiting is on: without it the kernel's port hash spreads even one
  // client's queries over every worker (a benchmark from one address uses every core).
  const limiting = rrl !== null && ('enabled' in rrl ? rrl.enabled : rrl.rate > 0);
  let server: DnsServer;
  try {
    server = await startDnsServer({
      host: spec.host,
      port: spec.port,
      handler: zones.handler ?? createMessageHandler(zones.store),
      slotHandler: zones.handler !== undefined ? (zones.slotHandler ?? null) : null,
      rrl,
      stats: zones.stats,
      limits: spec.limits,
      nativeUdp: spec.nativeUdp,
      ...(steerable && limiting ? { udpSteerGroup: workers } : {}),
      ...(zones.transfer !== undefined ? { transfer: zones.transfer } : {}),
    });
  } catch (err) {
    await Promise.resolve(zones.close?.()).catch(() => undefined);
    throw err;
  }
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await server.close();
    try {
      await zones.close?.();
    } finally {
      process.exit(0);
    }
  };
  process.on('message', (m: unknown) => {
    const msg = m as DnsWorkerMessage;
    if (typeof msg !== 'object' || msg === null) return;
    if (msg.dnsWorker === 'stop') void stop();
    else if (msg.dnsWorker === 'user') zones.onMessage?.(msg.message);
    else if (msg.dnsWorker === 'request') {
      const id = msg.id;
      // A throwing onRequest answers nothing: the primary's timeout lists this worker unanswered.
      void Promise.resolve()
        .then(() => zones.onRequest?.(msg.message))
        .then((reply) => send({ dnsWorker: 'reply', id, reply }))
        .catch(() => undefined);
    }
  });
  // The primary stops us by message. SIGTERM to one worker stops it (the primary replaces it);
  // SIGINT (Ctrl-C reaches the whole process group) is left to the primary to act on.
  process.once('SIGTERM', () => void stop());
  process.on('SIGINT', () => undefined);
  send({ dnsWorker: 'ready', port: server.udpPort });
}

/**
 * Runs this process as a DNS worker serving the zones `loadZones` returns (called once, with the
 * supervisor's `zoneOptions`). Never rejects: a failure to start is reported to the primary as
 * `failed` and the worker exits 1.
 */
export function runDnsWorker(loadZones: DnsWorkerZoneLoader): void {
  main(loadZones).catch((err: unknown) => {
    send({ dnsWorker: 'failed', error: err instanceof Error ? err.message : String(err) });
    process.exitCode = 1;
    // Let the IPC message flush before exiting.
    setTimeout(() => process.exit(1), 100).unref();
    cluster.worker?.disconnect();
  });
}
