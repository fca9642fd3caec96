// npm postinstall: builds the optional batch-UDP addon with node-gyp. Never fails the install:
// without a compiler or Node headers the DNS server serves UDP through node:dgram instead.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (process.platform !== 'linux' || process.env.DNS_NATIVE_UDP === '0') process.exit(0);
const dir = fileURLToPath(new URL('.', import.meta.url));
const result = spawnSync('node-gyp', ['rebuild', '-C', dir], {
  stdio: 'ignore',
  shell: false,
  timeout: 120_000,
});
process.stdout.write(
  result.status === 0
    ? 'native batch-UDP addon built\n'
    : 'native batch-UDP addon not built (no compiler?); DNS uses node:dgram\n',
);
