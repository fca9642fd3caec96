/**
 * Serves one zone file the way a user would: ZoneStore + core handler + startDnsServer.
 * `tsx bench/serve-zone-file.ts --zone FILE --origin example.com [--port 5300] [--host 127.0.0.1]
 *  [--workers N] [--native] [--rrl RATE] [--answer-cache-mb 32]`. --native serves UDP through the batch addon when it is built. N = 1 serves in this process; N > 1 runs startDnsWorkers (cluster workers
 * sharing the port). Prints `ready <port>` on stdout once every worker listens. RRL is off unless
 * --rrl gives a rate (loopback, where benchmarks run, is exempt: the limiter only looks; with
 * workers on the native path it turns on steering by source network, see bench/rrl-steering.ts).
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createMessageHandlerWithContext, startDnsServer, startDnsWorkers } from '../src/dns/index.ts';
import { loadZones } from './zone-file-zones.ts';
import type { ZoneFileZonesOptions } from './zone-file-zones.ts';

const { values } = parseArgs({
  options: {
    zone: { type: 'string' },
    origin: { type: 'string' },
    port: { type: 'string', default: '5300' },
    host: { type: 'string', default: '127.0.0.1' },
    workers: { type: 'string', default: '1' },
    native: { type: 'boolean', default: false },
    rrl: { type: 'string', default: '0' },
    'answer-cache-mb': { type: 'string', default: '32' },
  },
});
if (!values.zone || !values.origin) throw new Error('--zone and --origin are required');
const workers = Math.max(1, Number(values.workers));
const zoneOptions: ZoneFileZonesOptions = { zoneFile: values.zone, origin: values.origin };
const host = values.host!;
const port = Number(values.port);
const rrl = Number(values.rrl) > 0 ? { rate: Number(values.rrl) } : null;

let close: () => Promise<void>;
if (workers === 1) {
  const handlers = createMessageHandlerWithContext(loadZones(zoneOptions).store, {
    answerCache: { bytes: Number(values['answer-cache-mb']) * 1024 * 1024 },
  });
  const server = await startDnsServer({
    host,
    port,
    handler: handlers.handle,
    slotHandler: handlers.handleSlot,
    rrl,
    nativeUdp: values.native,
  });
  close = () => server.close();
  console.error(`udp path: ${server.udpPath}`);
  console.log(`ready ${server.udpPort}`);
} else {
  const dns = await startDnsWorkers({
    host,
    port,
    workers,
    workerEntry: fileURLToPath(new URL('./zone-file-worker.ts', import.meta.url)),
    zoneOptions,
    rrl,
    nativeUdp: values.native,
  });
  close = () => dns.close();
  console.log(`ready ${dns.port}`);
}
const stop = (): void => void close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
