/**
 * A DNS node's cold start from its snapshot file, the database unreachable: ZoneSync with a zone
 * source that fails at once and the snapshot file as its fallback (the path of
 * src/nodes/dns/dns-role.ts, its two mirrors included: zone transfers' and the snapshot file
 * itself), then the core handler served by
 * startDnsServer on 127.0.0.1. Prints `ready <port>` once it listens.
 * `tsx bench/serve-snapshot-file.ts --file dns-snapshot.bin [--port 5300]`; run by bench/scale-1m.ts.
 */
import { parseArgs } from 'node:util';
import {
  TransferZones,
  ZoneStore,
  createMessageHandlerWithContext,
  startDnsServer,
} from '../src/dns/index.ts';
import type { ZoneSource } from '../src/dns/index.ts';
import { createLogger } from '../src/kernel/log/logger.ts';
import { SnapshotFile } from '../src/nodes/dns/snapshot-file.ts';
import { ZoneSync } from '../src/nodes/dns/zone-sync.ts';

const { values } = parseArgs({
  options: {
    file: { type: 'string' },
    port: { type: 'string', default: '5300' },
  },
});
if (!values.file) throw new Error('--file is required');

const unreachable = (): Promise<never> => Promise.reject(new Error('database unreachable'));
const source: ZoneSource = { loadAll: unreachable, load: unreachable };
const snapshot = new SnapshotFile(values.file);
const store = new ZoneStore();
const sync = new ZoneSync(
  store,
  source,
  () => Promise.resolve(() => Promise.resolve()),
  createLogger('silent'),
  [new TransferZones(), snapshot],
  { fallback: () => snapshot.read(), startWaitMs: 0 },
);
await sync.start();
const handlers = createMessageHandlerWithContext(store, { answerCache: { bytes: 32 * 1024 * 1024 } });
const server = await startDnsServer({
  host: '127.0.0.1',
  port: Number(values.port),
  handler: handlers.handle,
  slotHandler: handlers.handleSlot,
  rrl: null,
});
console.log(`ready ${server.udpPort}`);
const stop = (): void =>
  void server
    .close()
    .then(() => sync.stop())
    .then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
