import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from './metrics-registry.ts';

describe('MetricsRegistry', () => {
  it('renders counters, gauges and histograms in text format 0.0.4', () => {
    const r = new MetricsRegistry();
    const c = r.counter('x_total', 'Things.', ['kind']);
    c.inc({ kind: 'a' });
    c.inc({ kind: 'a' }, 2);
    c.inc({ kind: 'q"\\\n' });
    const g = r.gauge('y', 'A level.');
    r.onCollect(() => g.set(1.5));
    const h = r.histogram('z_seconds', 'Durations.', [0.1, 1]);
    h.observe(0.05);
    h.observe(0.5);
    h.observe(3);
    expect(r.render()).toBe(
      [
        '# HELP x_total Things.',
        '# TYPE x_total counter',
        'x_total{kind="a"} 3',
        'x_total{kind="q\\"\\\\\\n"} 1',
        '# HELP y A level.',
        '# TYPE y gauge',
        'y 1.5',
        '# HELP z_seconds Durations.',
        '# TYPE z_seconds histogram',
        'z_seconds_bucket{le="0.1"} 1',
        'z_seconds_bucket{le="1"} 2',
        'z_seconds_bucket{le="+Inf"} 3',
        'z_seconds_sum 3.55',
        'z_seconds_count 3',
        '',
      ].join('\n'),
    );
  });

  it('loads per-bucket counts kept elsewhere as cumulative buckets', () => {
    const r = new MetricsRegistry();
    const h = r.histogram('d', 'D.', [1, 2]);
    h.load(Float64Array.from([2, 3, 4]), 10);
    expect(r.render()).toContain(
      'd_bucket{le="1"} 2\nd_bucket{le="2"} 5\nd_bucket{le="+Inf"} 9\nd_sum 10\nd_count 9',
    );
  });

  it('scrape awaits the beforeCollect hooks (a failing one keeps the last values) before rendering', async () => {
    const r = new MetricsRegistry();
    const g = r.gauge('remote', 'Fetched from elsewhere.');
    let next = 1;
    r.beforeCollect(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (next === 3) throw new Error('unreachable');
      g.set(next++);
    });
    expect(await r.scrape()).toContain('remote 1\n');
    expect(await r.scrape()).toContain('remote 2\n');
    expect(await r.scrape()).toContain('remote 2\n');
  });

  it('refuses a name registered twice', () => {
    const r = new MetricsRegistry();
    r.gauge('a', 'A.');
    expect(() => r.counter('a', 'A.')).toThrow(/twice/);
  });
});
