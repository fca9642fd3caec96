import type { CommerceContext } from '../commerce-context.ts';
import { orderNotFound } from '../commerce-errors.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { OrderEditsRepository } from './order-edits-repository.ts';
import {
  orderDetailView,
  orderNoteView,
  type OrderDetailView,
  type OrderNoteView,
} from './order-edits-view.ts';

/** Reading one order, editing what an edit may change (e-mail, metadata), and its notes. */
export class OrderEditsService {
  private readonly repo: OrderEditsRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
  ) {
    this.repo = new OrderEditsRepository(ctx.db);
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }

  async get(orgId: number, id: number): Promise<OrderDetailView> {
    const order = await this.repo.order(orgId, id);
    if (order === null) throw orderNotFound();
    return orderDetailView(order, await this.repo.notes(id));
  }

  async update(
    orgId: number,
    id: number,
    input: { email?: string | null; metadata?: Record<string, unknown> },
  ): Promise<OrderDetailView> {
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      if (!(await repo.update(orgId, id, input, this.now()))) throw orderNotFound();
      const order = (await repo.order(orgId, id))!;
      return {
        result: orderDetailView(order, await repo.notes(id)),
        events: [['commerce.order.updated', { id, order_number: order.order_number }]],
      };
    });
  }

  async addNote(orgId: number, id: number, body: string, author: string): Promise<OrderNoteView> {
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      if ((await repo.order(orgId, id)) === null) throw orderNotFound();
      const note = await repo.addNote(orgId, id, body, author, this.now());
      return {
        result: orderNoteView(note),
        events: [['commerce.order.note_created', { id: Number(note.id), order_id: id }]],
      };
    });
  }
}
