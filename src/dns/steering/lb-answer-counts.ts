/**
 * Answers at load balancers' hostnames counted by (zone, load balancer, cascade hit, reason), so an
 * operator can alert on fail-open (`serve_last`) answers. The hot path pays a cached array lookup
 * on the compiled load balancer and one increment; counts live per load balancer id across zone
 * reloads (a counter must not go back) and are read as plain data when metrics are scraped.
 */
import type { CompiledLoadBalancer } from './steering-compiler.ts';
import type { CascadeHit, SteeringDecision, SteeringReason } from './steering-decision.ts';

export const CASCADE_HITS: readonly (CascadeHit | 'none')[] = [
  'none',
  'location',
  'country',
  'region',
  'default',
  'proximity',
  'fallback',
  'serve_last',
];
export const STEERING_REASONS: readonly SteeringReason[] = [
  'ok',
  'all_unhealthy_serve_last',
  'all_unhealthy',
  'no_members',
  'load_balancer_disabled',
];

function hitIndex(hit: CascadeHit): number {
  switch (hit) {
    case null:
      return 0;
    case 'location':
      return 1;
    case 'country':
      return 2;
    case 'region':
      return 3;
    case 'default':
      return 4;
    case 'proximity':
      return 5;
    case 'fallback':
      return 6;
    case 'serve_last':
      return 7;
  }
}

function reasonIndex(reason: SteeringReason): number {
  switch (reason) {
    case 'ok':
      return 0;
    case 'all_unhealthy_serve_last':
      return 1;
    case 'all_unhealthy':
      return 2;
    case 'no_members':
      return 3;
    case 'load_balancer_disabled':
      return 4;
  }
}

const SLOTS = CASCADE_HITS.length * STEERING_REASONS.length;

function slotIndex(decision: SteeringDecision): number {
  return hitIndex(decision.cascadeHit) * STEERING_REASONS.length + reasonIndex(decision.reason);
}

/** `zone|lb|cascadeHit|reason` (zone apex, load balancer hostname) → answers, non-zero only (IPC-safe). */
export type LbAnswerSnapshot = Record<string, number>;

/** The labels of a snapshot key. */
export function lbAnswerLabels(key: string): {
  zone: string;
  lb: string;
  cascade_hit: string;
  reason: string;
} {
  const [zone = '', lb = '', hit = '', reason = ''] = key.split('|');
  return { zone, lb, cascade_hit: hit, reason };
}

/** The counted slots of one compiled load balancer, and whose they are. */
const SLOTS_OF = new WeakMap<CompiledLoadBalancer, { owner: LbAnswerCounts; slots: Float64Array }>();

export class LbAnswerCounts {
  /** By load balancer id: its names as last compiled, and its counts. */
  private readonly byLb = new Map<number, { zone: string; lb: string; slots: Float64Array }>();
  /** Set on a merged copy (the primary's, from its workers' snapshots): read instead of byLb. */
  private merged: LbAnswerSnapshot | null = null;

  /** Counted slots of (zone, lb, hit, reason) kept in an answer cache: token → slots array, index. */
  private readonly tokenSlots: Float64Array[] = [];
  private readonly tokenIndex: number[] = [];
  private readonly tokenOfSlot = new Map<Float64Array, Int32Array>();

  private slotsOf(zoneApex: string, compiled: CompiledLoadBalancer): Float64Array {
    let cached = SLOTS_OF.get(compiled);
    if (cached === undefined || cached.owner !== this) {
      let entry = this.byLb.get(compiled.lb.id);
      if (entry === undefined) {
        entry = { zone: zoneApex, lb: compiled.lb.hostname, slots: new Float64Array(SLOTS) };
        this.byLb.set(compiled.lb.id, entry);
      }
      // A new compilation: the hostname may have changed since.
      entry.zone = zoneApex;
      entry.lb = compiled.lb.hostname;
      cached = { owner: this, slots: entry.slots };
      SLOTS_OF.set(compiled, cached);
    }
    return cached.slots;
  }

  /** Counts one decision for `compiled`, a load balancer of the zone at `zoneApex`. */
  count(zoneApex: string, compiled: CompiledLoadBalancer, decision: SteeringDecision): void {
    this.slotsOf(zoneApex, compiled)[slotIndex(decision)]!++;
  }

  /**
   * A number standing for the slot count() increments for this decision, for an answer cache to
   * keep beside a steered answer and count its hits with countToken(). At most one per load
   * balancer id and slot, so their number is bounded by the configuration.
   */
  tokenOf(zoneApex: string, compiled: CompiledLoadBalancer, decision: SteeringDecision): number {
    const slots = this.slotsOf(zoneApex, compiled);
    let tokens = this.tokenOfSlot.get(slots);
    if (tokens === undefined) {
      tokens = new Int32Array(SLOTS).fill(-1);
      this.tokenOfSlot.set(slots, tokens);
    }
    const i = slotIndex(decision);
    if (tokens[i]! < 0) {
      tokens[i] = this.tokenSlots.length;
      this.tokenSlots.push(slots);
      this.tokenIndex.push(i);
    }
    return tokens[i]!;
  }

  /** Counts one answer of the slot behind `token` (tokenOf). */
  countToken(token: number): void {
    this.tokenSlots[token]![this.tokenIndex[token]!]!++;
  }

  snapshot(): LbAnswerSnapshot {
    if (this.merged !== null) return { ...this.merged };
    const out: LbAnswerSnapshot = {};
    for (const { zone, lb, slots } of this.byLb.values()) {
      for (let i = 0; i < SLOTS; i++) {
        if (slots[i] === 0) continue;
        const hit = CASCADE_HITS[Math.floor(i / STEERING_REASONS.length)]!;
        const key = `${zone}|${lb}|${hit}|${STEERING_REASONS[i % STEERING_REASONS.length]!}`;
        out[key] = (out[key] ?? 0) + slots[i]!;
      }
    }
    return out;
  }

  /** Makes this copy answer `snapshot` from now on (the sum of the workers' counts). */
  load(snapshot: LbAnswerSnapshot): void {
    this.merged = { ...snapshot };
  }
}
