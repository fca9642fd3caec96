/**
 * Bench helper, run as a child process: a local HTTPS receiver (its own CA) that answers 204 and
 * counts what it receives, so the product's process spends its core on sending alone. Tells the
 * parent its URL and CA file, then the count whenever asked.
 */
import { startHttpsReceiver } from '../src/testing/https-receiver.ts';

const receiver = await startHttpsReceiver(() => ({ status: 204 }));
process.send?.({ url: receiver.url, caFile: receiver.caFile });
process.on('message', (m: unknown) => {
  if (m === 'count') process.send?.({ count: receiver.requests.length });
  if (m === 'stop') void receiver.close().then(() => process.exit(0));
});
