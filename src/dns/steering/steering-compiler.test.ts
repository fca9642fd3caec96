import { describe, expect, it } from 'vitest';
import { loadBalancer, member, pool } from '../../testing/steering-fixture.ts';
import { wireNameFromText } from '../wire/wire-name.ts';
import { compileZoneSteering, poolRRsetKey } from './steering-compiler.ts';
import { RR_TYPE } from '../wire/rr-type.ts';

const APEX = wireNameFromText('example.com');
const POOLS = [
  pool(1, [
    member(1, '192.0.2.1'),
    member(2, '2001:db8::2', { weight: 5 }),
    member(3, '192.0.2.3', { enabled: false }),
  ]),
];

describe('compileZoneSteering', () => {
  it('pre-encodes one RRset per member and serve_last RRsets per pool and family', () => {
    const c = compileZoneSteering(
      {
        pools: POOLS,
        loadBalancers: [loadBalancer({ hostname: 'WWW.example.com', ttl: 42, defaultPools: [1] })],
      },
      APEX,
      null,
    )!;
    const lb = c.get(wireNameFromText('www.example.com').keys[0]!)!;
    const a = lb.memberRRsets.get(1)!;
    expect(a.type).toBe(RR_TYPE.A);
    expect(a.ttl).toBe(42);
    expect([...a.data.subarray(a.start, a.start + 14)]).toEqual([
      0, 1, 0, 1, 0, 0, 0, 42, 0, 4, 192, 0, 2, 1,
    ]);
    expect(lb.memberRRsets.get(2)!.type).toBe(RR_TYPE.AAAA);
    expect(lb.poolRRsets.get(poolRRsetKey(1, 4))!.rdatas).toEqual([Uint8Array.from([192, 0, 2, 1])]);
    expect(lb.poolRRsets.get(poolRRsetKey(1, 6))!.count).toBe(1);
  });

  it('leaves out disabled load balancers and hostnames outside the zone', () => {
    expect(
      compileZoneSteering(
        {
          pools: POOLS,
          loadBalancers: [
            loadBalancer({ hostname: 'a.example.com', enabled: false }),
            loadBalancer({ hostname: 'www.example.net' }),
            loadBalancer({ hostname: 'notexample.com' }),
          ],
        },
        APEX,
        null,
      ),
    ).toBeNull();
    expect(compileZoneSteering(undefined, APEX, null)).toBeNull();
  });
});
