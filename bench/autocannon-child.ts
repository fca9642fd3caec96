/**
 * A load generator in a process of its own (on the other core), so that the server measured in the
 * parent does not share its CPU with the client: autocannon with the options given as the first
 * argument; the summary goes back to the parent over IPC.
 *
 * `vary`: each request comes from another client — `x-forwarded-for` over 65,536 addresses and one
 * of 1,024 user agents — as page views of a storefront's visitors do.
 */
import autocannon from 'autocannon';

export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  readonly seconds: number;
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  readonly headers?: Record<string, string>;
  readonly vary?: boolean;
}

export interface LoadSummary {
  readonly seconds: number;
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly total: number;
  readonly latencyMeanMs: number;
  readonly latencyP99Ms: number;
  readonly requestsPerSecond: number;
}

const options = JSON.parse(process.argv[2]!) as LoadOptions;
let n = 0;
const result = await autocannon({
  url: options.url,
  connections: options.connections,
  duration: options.seconds,
  requests: [
    {
      method: options.method ?? 'GET',
      ...(options.body !== undefined ? { body: options.body } : {}),
      setupRequest: (req) => {
        if (options.vary !== true) return { ...req, headers: { ...options.headers } };
        const i = n++;
        return {
          ...req,
          headers: {
            ...options.headers,
            'user-agent': `Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0 v${i & 1023}`,
            'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
          },
        };
      },
    },
  ],
});
const summary: LoadSummary = {
  seconds: result.duration,
  ok: result['2xx'],
  non2xx: result.non2xx,
  errors: result.errors,
  total: result.requests.total,
  latencyMeanMs: result.latency.mean,
  latencyP99Ms: result.latency.p99,
  requestsPerSecond: result.requests.average,
};
process.send!(summary, () => process.exit(0));
