/**
 * What the health checker needs to know about one origin member, independent of how members are
 * stored: the control plane maps its rows to this shape.
 */
export type HealthMode = 'none' | 'http' | 'https' | 'tcp';
export type HealthStatus = 'unknown' | 'healthy' | 'unhealthy';
/** A mode that actually sends traffic (`none` members are healthy without a probe). */
export type ProbeMode = Exclude<HealthMode, 'none'>;

export interface HealthTarget {
  readonly memberId: number;
  readonly zoneId: number;
  /** The member's pool (metrics label). */
  readonly poolId: number;
  /** An IP literal (IPv4 or IPv6): members never carry host names. */
  readonly address: string;
  readonly mode: ProbeMode;
  /** Request path for http/https; ignored for tcp. */
  readonly path: string;
  /** The port as stored: null means the default for the mode (see probePort). */
  readonly port: number | null;
  readonly timeoutS: number;
}

/** What one probe concluded: null when healthy, else the `last_error` text. */
export type ProbeVerdict = string | null;

export interface ProbeResult {
  readonly status: 'healthy' | 'unhealthy';
  /** Short human text for an unhealthy result (`HTTP 503 Service Unavailable`); null when healthy. */
  readonly error: string | null;
  /** Time from the start of the probe to its verdict; null when no connection was attempted. */
  readonly latencyMs: number | null;
  /** Epoch ms at which the verdict was reached (injected clock). */
  readonly checkedAt: number;
}

/**
 * An empty `health_port` is 443 for `https` and 80 otherwise
 * (docs/dns-and-load-balancing.md, "Load balancing").
 */
export function probePort(mode: HealthMode, port: number | null): number {
  if (port !== null) return port;
  return mode === 'https' ? 443 : 80;
}
