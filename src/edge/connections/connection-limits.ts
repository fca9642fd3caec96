/**
 * Who may open a connection: new connections per source network (an IPv4 /24 or an IPv6 /64) come
 * out of a token bucket (`rate` a second, bursts of `burst`), and one address holds at most
 * `maxPerAddress` open at once. Networks idle long enough to have a full bucket are forgotten.
 */
import { isIPv4 } from 'node:net';

export interface ConnectionLimitSettings {
  readonly rate: number;
  readonly burst: number;
  readonly maxPerAddress: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** The /24 of an IPv4 address, the /64 of an IPv6 one (its first four groups, expanded). */
export function networkOf(address: string): string {
  if (isIPv4(address)) return address.slice(0, address.lastIndexOf('.'));
  const [head = '', tail = ''] = address.split('::');
  const h = head === '' ? [] : head.split(':');
  const t = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t]
    : h;
  return groups.slice(0, 4).join(':');
}

export class ConnectionLimits {
  private readonly buckets = new Map<string, Bucket>();
  private readonly open = new Map<string, number>();

  constructor(private readonly settings: ConnectionLimitSettings) {}

  /** Whether `address` may open one more connection at `now` (ms); when true, it holds one. */
  admit(address: string, now: number): 'ok' | 'rate' | 'too_many' {
    const held = this.open.get(address) ?? 0;
    if (held >= this.settings.maxPerAddress) return 'too_many';
    const net = networkOf(address);
    const b = this.buckets.get(net) ?? { tokens: this.settings.burst, at: now };
    b.tokens = Math.min(this.settings.burst, b.tokens + ((now - b.at) / 1000) * this.settings.rate);
    b.at = now;
    this.buckets.set(net, b);
    if (b.tokens < 1) return 'rate';
    b.tokens -= 1;
    this.open.set(address, held + 1);
    return 'ok';
  }

  /** A connection admitted for `address` closed. */
  release(address: string): void {
    const held = (this.open.get(address) ?? 1) - 1;
    if (held <= 0) this.open.delete(address);
    else this.open.set(address, held);
  }

  /** Drops buckets that would be full again by `now` (called now and then, not per connection). */
  sweep(now: number): void {
    const refill = (this.settings.burst / this.settings.rate) * 1000;
    for (const [net, b] of this.buckets) if (now - b.at >= refill) this.buckets.delete(net);
  }
}
