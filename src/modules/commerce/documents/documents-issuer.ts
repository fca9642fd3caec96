import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import type { OrgDirectory } from '../../orgs/index.ts';
import type { CommerceSettings } from '../commerce-config.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { CommerceTables } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import type { RefundCreatedData } from '../refunds/refund-record.ts';
import { buyerOf, sellerOfRecord, type SellerOfRecord } from './document-parties.ts';
import { creditNoteLines, invoiceLines } from './document-lines.ts';
import { DocumentsRepository, type OrderFacts } from './documents-repository.ts';
import { documentNumber, shareOf, type DocumentKind, type OrderDocument } from './order-document.ts';

type Uow = UnitOfWork<CommerceTables>;

/**
 * Issues an order's documents in the transaction of what they record (docs/commerce.md, "Order
 * documents"): the invoice with `commerce.order.placed`, a credit note with each
 * `commerce.refund.created`. A document that cannot be issued undoes the order or the refund.
 */
export class DocumentsIssuer {
  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
    private readonly orgs: OrgDirectory,
    private readonly platform: CommerceSettings['platformSeller'],
  ) {}

  /** Reacts to the events that issue documents (the module factory calls it once). */
  listen(): void {
    this.log.react('commerce.order.placed', (uow, orgId, data) => this.invoice(uow, orgId, Number(data.id)));
    this.log.react('commerce.refund.created', (uow, orgId, data) =>
      this.creditNote(uow, orgId, data as unknown as RefundCreatedData),
    );
  }

  private async invoice(uow: Uow, orgId: number, orderId: number): Promise<void> {
    const repo = new DocumentsRepository(uow.trx);
    const order = await this.orderOf(repo, orgId, orderId);
    const { key, seller } = await this.seller(uow, repo, orgId);
    const lines = invoiceLines(await repo.items(orderId), order);
    await this.issue(uow, repo, orgId, key, 'invoice', null, (number, issuedAt) => ({
      type: 'invoice',
      number,
      issued_at: issuedAt,
      currency: order.currency,
      order: { id: order.id, order_number: order.orderNumber },
      refers_to: null,
      seller,
      buyer: buyerOf(order.email, order.billingAddress, order.shippingAddress),
      tax_inclusive: taxInclusive(order),
      tax_rate: order.taxRate,
      lines,
      totals: {
        subtotal_minor: order.subtotal,
        shipping_minor: order.shipping,
        discount_minor: order.discount,
        tax_minor: order.tax,
        total_minor: order.total,
      },
    }));
  }

  /**
   * A credit note corrects the order's invoice: same seller (and number sequence), buyer and tax
   * treatment. Its tax is the invoice's tax in proportion of the amount refunded, rounded half up.
   */
  private async creditNote(uow: Uow, orgId: number, refund: RefundCreatedData): Promise<void> {
    const repo = new DocumentsRepository(uow.trx);
    const order = await this.orderOf(repo, orgId, refund.order_id);
    const invoice = await repo.invoiceOf(order.id);
    const { key, seller } =
      invoice === null
        ? await this.seller(uow, repo, orgId)
        : { key: keyOf(invoice, orgId), seller: invoice.seller };
    const lines = creditNoteLines(await repo.items(order.id), refund);
    const base = invoice?.totals ?? { tax_minor: order.tax, total_minor: order.total };
    const tax = shareOf(base.tax_minor, refund.amount, base.total_minor);
    await this.issue(uow, repo, orgId, key, 'credit_note', refund.id, (number, issuedAt) => ({
      type: 'credit_note',
      number,
      issued_at: issuedAt,
      currency: refund.currency_code.toUpperCase(),
      order: { id: order.id, order_number: order.orderNumber },
      refers_to: invoice?.number ?? null,
      seller,
      buyer: invoice?.buyer ?? buyerOf(order.email, order.billingAddress, order.shippingAddress),
      tax_inclusive: invoice?.tax_inclusive ?? taxInclusive(order),
      tax_rate: invoice?.tax_rate ?? order.taxRate,
      lines,
      totals: {
        subtotal_minor: lines.reduce((a, l) => a + l.amount_minor, 0),
        shipping_minor: 0,
        discount_minor: 0,
        tax_minor: tax,
        total_minor: refund.amount,
      },
    }));
  }

  /** Numbers the document in its seller's sequence for the year of the module clock, stores it, announces it. */
  private async issue(
    uow: Uow,
    repo: DocumentsRepository,
    orgId: number,
    sellerKey: string,
    kind: DocumentKind,
    refundId: number | null,
    make: (number: string, issuedAt: string) => OrderDocument,
  ): Promise<void> {
    const at = new Date(this.ctx.clock.now());
    const year = at.getUTCFullYear();
    const number = documentNumber(kind, year, await repo.nextNumber(sellerKey, kind, year));
    const document = make(number, at.toISOString());
    const id = await repo.insert({
      org_id: orgId,
      order_id: document.order.id,
      kind,
      refund_id: refundId,
      seller_key: sellerKey,
      number,
      issued_at: at,
      snapshot: document,
    });
    await this.log.announce(uow, orgId, 'commerce.document.issued', {
      id,
      order_id: document.order.id,
      type: kind,
      number,
    });
  }

  private async orderOf(repo: DocumentsRepository, orgId: number, orderId: number): Promise<OrderFacts> {
    const order = await repo.order(orgId, orderId);
    if (order === null)
      throw new Error(`order ${orderId} of organization ${orgId} not found for its document`);
    return order;
  }

  private async seller(uow: Uow, repo: DocumentsRepository, orgId: number): Promise<SellerOfRecord> {
    // Read through the transaction: on the embedded database it holds the only connection.
    const org = await this.orgs.byIdWithin(uow.trx, orgId);
    if (org === null) throw new Error(`organization ${orgId} not found for an order document`);
    const shop = await repo.shopSettings(orgId);
    return sellerOfRecord(
      { org, storeName: shop.name, supportEmail: shop.supportEmail, sellerOfRecord: shop.sellerOfRecord },
      this.platform,
    );
  }
}

/** Prices included the tax when the total is not raised by it (docs/commerce.md, "Totals"). */
function taxInclusive(o: OrderFacts): boolean {
  return o.tax > 0 && o.total === o.subtotal + o.shipping - o.discount;
}

/** The sequence an invoice was numbered in: the platform's or its organization's. */
function keyOf(invoice: OrderDocument, orgId: number): string {
  return invoice.seller.type === 'platform' ? 'platform' : `org:${orgId}`;
}
