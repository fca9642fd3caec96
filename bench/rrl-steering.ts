/**
 * What steering by source network costs the answer path (RRL across workers): two DNS workers on
 * the native UDP path, without RRL (the kernel's port hash spreads queries) and with RRL on (the
 * reuseport program steers each datagram by its source network; loopback is exempt, so nothing is
 * limited and the limiter only looks). dnsperf at a fixed rate one worker keeps up with, alternate
 * rounds, server CPU µs per query from /proc (the whole process tree).
 * `tsx bench/rrl-steering.ts [--rounds 3] [--seconds 5] [--qps 20000]`
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { measure } from './dnsperf-measure.ts';
import { median, ORIGIN, startOurs } from './dnsperf-runner.ts';
import { generateQueries } from './query-generator.ts';
import { generateZone } from './zone-generator.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '5' },
    qps: { type: 'string', default: '20000' },
  },
});
const dir = mkdtempSync(path.join(tmpdir(), 'rrl-steering-'));
const zone = generateZone({ origin: ORIGIN });
const zoneFile = path.join(dir, 'bench.zone');
const queryFile = path.join(dir, 'queries.txt');
writeFileSync(zoneFile, zone.text);
writeFileSync(queryFile, generateQueries(zone));
const setups = [
  { name: 'RRL off (port hash)', args: [] as string[] },
  { name: 'RRL on (steered by network)', args: ['--rrl', '1000000'] },
];
const cpu = new Map<string, number[]>(setups.map((s) => [s.name, []]));
try {
  for (let round = 1; round <= Number(values.rounds); round++) {
    for (const setup of setups) {
      const server = await startOurs(zoneFile, 2, true, setup.args);
      try {
        const m = await measure(
          {
            port: server.port,
            queryFile,
            seconds: Number(values.seconds),
            transport: 'udp',
            clients: 4,
            maxQps: Number(values.qps),
          },
          server.pid,
        );
        cpu.get(setup.name)!.push(m.cpuUsPerQuery);
        console.error(
          `${setup.name} r${round}: ${m.qps.toFixed(0)} q/s, ${m.cpuUsPerQuery.toFixed(2)} µs/q, lost ${m.lost}`,
        );
      } finally {
        await server.stop();
      }
    }
  }
  const [off, on] = setups.map((s) => median(cpu.get(s.name)!));
  console.log(
    `median CPU µs per query at ${values.qps} q/s: RRL off ${off!.toFixed(2)}, steered ${on!.toFixed(2)} ` +
      `(${(on! / off!).toFixed(3)}×); rounds off [${cpu
        .get(setups[0]!.name)!
        .map((x) => x.toFixed(2))
        .join(', ')}], ` +
      `on [${cpu
        .get(setups[1]!.name)!
        .map((x) => x.toFixed(2))
        .join(', ')}]`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
