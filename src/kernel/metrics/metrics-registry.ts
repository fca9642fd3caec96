/**
 * A small Prometheus registry rendered in text exposition format 0.0.4: counters, gauges and
 * histograms with labels. Written by hand so the engine needs no metrics dependency; hot paths
 * elsewhere keep plain numbers and `onCollect` copies them in just before each scrape.
 */

export type Labels = Readonly<Record<string, string>>;

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

interface Metric {
  render(out: string[]): void;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function formatValue(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  return String(n);
}

function labelText(names: readonly string[], values: readonly string[], extra = ''): string {
  const parts: string[] = [];
  for (let i = 0; i < names.length; i++) parts.push(`${names[i]}="${escapeLabel(values[i] ?? '')}"`);
  if (extra !== '') parts.push(extra);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

/** Series of one metric, keyed by their label values in the declared label order. */
class Series<T> {
  readonly byKey = new Map<string, { values: string[]; state: T }>();
  constructor(
    readonly labelNames: readonly string[],
    private readonly fresh: () => T,
  ) {}

  get(labels: Labels | undefined): T {
    const values = this.labelNames.map((n) => labels?.[n] ?? '');
    const key = values.join('\u0000');
    let entry = this.byKey.get(key);
    if (entry === undefined) {
      entry = { values, state: this.fresh() };
      this.byKey.set(key, entry);
    }
    return entry.state;
  }
}

function header(out: string[], name: string, help: string, type: string): void {
  out.push(`# HELP ${name} ${help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${name} ${type}`);
}

abstract class Scalar implements Metric {
  protected readonly series: Series<{ v: number }>;
  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly type: 'counter' | 'gauge',
    labelNames: readonly string[],
  ) {
    this.series = new Series(labelNames, () => ({ v: 0 }));
  }

  /** Sets the value; for a counter, only as a mirror of a monotonic total kept elsewhere. */
  set(value: number, labels?: Labels): void {
    this.series.get(labels).v = value;
  }

  get(labels?: Labels): number {
    return this.series.get(labels).v;
  }

  render(out: string[]): void {
    header(out, this.name, this.help, this.type);
    for (const { values, state } of this.series.byKey.values()) {
      out.push(`${this.name}${labelText(this.series.labelNames, values)} ${formatValue(state.v)}`);
    }
  }
}

export class Counter extends Scalar {
  inc(labels?: Labels, by = 1): void {
    this.series.get(labels).v += by;
  }
}

export class Gauge extends Scalar {}

interface HistogramState {
  counts: number[];
  sum: number;
  count: number;
}

export class Histogram implements Metric {
  private readonly series: Series<HistogramState>;
  constructor(
    readonly name: string,
    private readonly help: string,
    /** Upper bounds, ascending; +Inf is implied. */
    readonly buckets: readonly number[],
    labelNames: readonly string[],
  ) {
    this.series = new Series(labelNames, () => ({ counts: buckets.map(() => 0), sum: 0, count: 0 }));
  }

  observe(value: number, labels?: Labels): void {
    const s = this.series.get(labels);
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) s.counts[i]!++;
    s.sum += value;
    s.count++;
  }

  /**
   * Replaces the state with totals kept elsewhere: `perBucket[i]` counts observations in bucket i
   * alone (not cumulative), with one more entry for above the last bound.
   */
  load(perBucket: ArrayLike<number>, sum: number, labels?: Labels): void {
    const s = this.series.get(labels);
    let running = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      running += perBucket[i] ?? 0;
      s.counts[i] = running;
    }
    s.count = running + (perBucket[this.buckets.length] ?? 0);
    s.sum = sum;
  }

  render(out: string[]): void {
    header(out, this.name, this.help, 'histogram');
    const names = this.series.labelNames;
    for (const { values, state } of this.series.byKey.values()) {
      for (let i = 0; i < this.buckets.length; i++) {
        const le = `le="${formatValue(this.buckets[i]!)}"`;
        out.push(`${this.name}_bucket${labelText(names, values, le)} ${state.counts[i]}`);
      }
      out.push(`${this.name}_bucket${labelText(names, values, 'le="+Inf"')} ${state.count}`);
      out.push(`${this.name}_sum${labelText(names, values)} ${formatValue(state.sum)}`);
      out.push(`${this.name}_count${labelText(names, values)} ${state.count}`);
    }
  }
}

export class MetricsRegistry {
  private readonly metrics = new Map<string, Metric>();
  private readonly collectors: (() => void)[] = [];
  private readonly asyncCollectors: (() => Promise<void>)[] = [];

  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    return this.add(name, new Counter(name, help, 'counter', labelNames));
  }

  gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge {
    return this.add(name, new Gauge(name, help, 'gauge', labelNames));
  }

  histogram(
    name: string,
    help: string,
    buckets: readonly number[],
    labelNames: readonly string[] = [],
  ): Histogram {
    return this.add(name, new Histogram(name, help, buckets, labelNames));
  }

  /** Runs before every render: where values kept outside the registry are copied in. */
  onCollect(collect: () => void): void {
    this.collectors.push(collect);
  }

  /**
   * Runs (all at once) before every `scrape`, ahead of the `onCollect` hooks: where values kept in
   * other processes are fetched. A hook that fails leaves the values it would have refreshed as
   * they were.
   */
  beforeCollect(collect: () => Promise<void>): void {
    this.asyncCollectors.push(collect);
  }

  /** `render` after the `beforeCollect` hooks settled: what /metrics serves. */
  async scrape(): Promise<string> {
    await Promise.allSettled(this.asyncCollectors.map((collect) => collect()));
    return this.render();
  }

  render(): string {
    for (const collect of this.collectors) collect();
    const out: string[] = [];
    for (const metric of this.metrics.values()) metric.render(out);
    return `${out.join('\n')}\n`;
  }

  private add<T extends Metric>(name: string, metric: T): T {
    if (this.metrics.has(name)) throw new Error(`metric ${name} registered twice`);
    this.metrics.set(name, metric);
    return metric;
  }
}
