import type { HealthView, MemberHealth } from './steering-config.ts';

/**
 * Mutable member health as this node knows it; the product updates it from the bus. Members never
 * reported are `unknown` (which steering treats as healthy).
 */
export class MemberHealthTable implements HealthView {
  readonly #status = new Map<number, MemberHealth>();
  #generation = 0;

  /** Moves whenever a member's status changes (steered answers kept in a cache compare it). */
  get generation(): number {
    return this.#generation;
  }

  statusOf(memberId: number): MemberHealth {
    return this.#status.get(memberId) ?? 'unknown';
  }

  set(memberId: number, status: MemberHealth): void {
    if (this.statusOf(memberId) === status) return;
    if (status === 'unknown') this.#status.delete(memberId);
    else this.#status.set(memberId, status);
    this.#generation = (this.#generation + 1) | 0;
  }

  /** Forget every member (e.g. on a full resync). */
  clear(): void {
    this.#status.clear();
    this.#generation = (this.#generation + 1) | 0;
  }
}
