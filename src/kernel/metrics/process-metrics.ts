import type { MetricsRegistry } from './metrics-registry.ts';

/** Process basics every role exposes: start time, uptime, memory. */
export function registerProcessMetrics(registry: MetricsRegistry): void {
  const start = registry.gauge(
    'process_start_time_seconds',
    'Start time of the process since the Unix epoch.',
  );
  const uptime = registry.gauge('process_uptime_seconds', 'Seconds since the process started.');
  const rss = registry.gauge('process_resident_memory_bytes', 'Resident memory size in bytes.');
  const heap = registry.gauge('nodejs_heap_used_bytes', 'V8 heap in use, in bytes.');
  start.set(Math.round(Date.now() / 1000 - process.uptime()));
  registry.onCollect(() => {
    uptime.set(process.uptime());
    rss.set(process.memoryUsage.rss());
    heap.set(process.memoryUsage().heapUsed);
  });
}
