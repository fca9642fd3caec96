import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { CommerceTables } from '../commerce-tables.ts';
import { ShopEventsRepository } from './shop-events-repository.ts';

/** Work done in the transaction of an announced event, with its data (see ShopEventLog.react). */
export type ShopEventReaction = (
  uow: UnitOfWork<CommerceTables>,
  orgId: number,
  data: Record<string, unknown>,
) => Promise<void>;

/**
 * Every change of a shop announces `commerce.<object>.<verb>` (`commerce.product.created`,
 * `commerce.inventory.updated`) in the transaction of the change: once in the organization's
 * outbox, which the webhooks module delivers to the organization's webhooks, and once in the
 * shop's event log that `GET .../commerce/events` pages through. Neither exists without the change.
 */
export class ShopEventLog {
  private readonly repo: ShopEventsRepository;
  private readonly listeners: ((orgId: number, names: readonly string[]) => void)[] = [];
  private readonly reactions = new Map<string, ShopEventReaction[]>();

  constructor(private readonly ctx: CommerceContext) {
    this.repo = new ShopEventsRepository(ctx.db);
  }

  async announce(
    uow: UnitOfWork<CommerceTables>,
    orgId: number,
    name: `commerce.${string}`,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.repo.withTx(uow.trx).insert(orgId, name, data, new Date(this.ctx.clock.now()));
    await uow.record({ orgId, name, data });
    for (const react of this.reactions.get(name) ?? []) await react(uow, orgId, data);
  }

  /**
   * Runs `react` in the transaction of every `name` announced from now on, after the event is
   * recorded: what must change with it or not at all (an invoice with a placed order, a ledger
   * entry with a refund). A reaction that throws undoes the change it reacts to.
   */
  react(name: `commerce.${string}`, react: ShopEventReaction): void {
    this.reactions.set(name, [...(this.reactions.get(name) ?? []), react]);
  }

  /** One change in one transaction with its events: `work` answers its result and the events. */
  async change<T>(
    orgId: number,
    work: (
      uow: UnitOfWork<CommerceTables>,
    ) => Promise<{ result: T; events: [`commerce.${string}`, Record<string, unknown>][] }>,
  ): Promise<T> {
    const names: string[] = [];
    const result = await this.ctx.transaction(async (uow) => {
      const { result, events } = await work(uow);
      for (const [name, data] of events) await this.announce(uow, orgId, name, data);
      names.push(...events.map(([name]) => name));
      return result;
    });
    for (const listener of this.listeners) listener(orgId, names);
    return result;
  }

  /** Hears every change once committed, with its events' names (what caches of the shop forget). */
  onCommitted(listener: (orgId: number, names: readonly string[]) => void): void {
    this.listeners.push(listener);
  }
}
