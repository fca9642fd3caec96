// npm postinstall: builds the optional native addons with node-gyp (batch UDP for the DNS server,
// the game edge's accept-and-status fast path). Never fails the install: without a compiler or
// Node headers the DNS server serves UDP through node:dgram and the edge accepts with node:net.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (process.platform !== 'linux') process.exit(0);
if (process.env.DNS_NATIVE_UDP === '0' && process.env.EDGE_NATIVE === '0') process.exit(0);
const dir = fileURLToPath(new URL('.', import.meta.url));
const result = spawnSync('node-gyp', ['rebuild', '-C', dir], {
  stdio: 'ignore',
  shell: false,
  timeout: 120_000,
});
process.stdout.write(
  result.status === 0
    ? 'native addons built (batch UDP, edge accept)\n'
    : 'native addons not built (no compiler?); DNS uses node:dgram, the game edge node:net\n',
);
