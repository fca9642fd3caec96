import type { CommerceContext } from '../commerce-context.ts';
import { orderNotFound } from '../commerce-errors.ts';
import type { OrderDocumentView } from '../documents/document-view.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { OrderEditsRepository } from './order-edits-repository.ts';
import {
  orderDetailView,
  orderNoteView,
  type OrderDetailView,
  type OrderNoteView,
} from './order-edits-view.ts';

/** An order's documents, with the URLs of their PDFs under the organization's slug. */
export type OrderDocumentsOf = (orgId: number, slug: string, orderId: number) => Promise<OrderDocumentView[]>;

/** Reading one order, editing what an edit may change (e-mail, metadata), and its notes. */
export class OrderEditsService {
  private readonly repo: OrderEditsRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
    private readonly documents: OrderDocumentsOf,
  ) {
    this.repo = new OrderEditsRepository(ctx.db);
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }

  async get(orgId: number, slug: string, id: number): Promise<OrderDetailView> {
    const order = await this.repo.order(orgId, id);
    if (order === null) throw orderNotFound();
    const [notes, documents] = await Promise.all([this.repo.notes(id), this.documents(orgId, slug, id)]);
    return orderDetailView(order, notes, documents);
  }

  async update(
    orgId: number,
    slug: string,
    id: number,
    input: { email?: string | null; metadata?: Record<string, unknown> },
  ): Promise<OrderDetailView> {
    const view = await this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      if (!(await repo.update(orgId, id, input, this.now()))) throw orderNotFound();
      const order = (await repo.order(orgId, id))!;
      return {
        result: orderDetailView(order, await repo.notes(id), []),
        events: [['commerce.order.updated', { id, order_number: order.order_number }]],
      };
    });
    // Documents never change with an edit; read once the transaction has let go of its connection.
    return { ...view, documents: await this.documents(orgId, slug, id) };
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
