import { Type } from 'typebox';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import { majorUnits } from '../money/money-amounts.ts';
import type { StoredDocument } from './documents-repository.ts';
import type { DocumentKind } from './order-document.ts';

interface PartyView {
  name: string;
  address: string[];
  email: string | null;
  vat_id: string | null;
}

/** A document as the APIs list it: amounts in major units, with the URL of its PDF. */
export interface OrderDocumentView {
  id: number;
  type: DocumentKind;
  number: string;
  issued_at: string;
  order_id: number;
  refers_to: string | null;
  seller: PartyView & { type: 'platform' | 'organization' };
  buyer: PartyView;
  lines: {
    description: string;
    sku: string | null;
    quantity: number;
    unit_price: number | null;
    tax: number | null;
    amount: number;
  }[];
  totals: { subtotal: number; shipping: number; discount: number; tax: number; total: number };
  tax_inclusive: boolean;
  tax_rate: number | null;
  currency: string;
  url: string;
}

/** The view of a stored document; `url` is where its PDF is read (the caller's door decides it). */
export function orderDocumentView(stored: StoredDocument, url: string): OrderDocumentView {
  const d = stored.document;
  const major = (minor: number): number => majorUnits(minor, d.currency);
  const maybe = (minor: number | null): number | null => (minor === null ? null : major(minor));
  return {
    id: stored.id,
    type: d.type,
    number: d.number,
    issued_at: d.issued_at,
    order_id: stored.orderId,
    refers_to: d.refers_to,
    seller: { ...d.seller, address: [...d.seller.address] },
    buyer: { ...d.buyer, address: [...d.buyer.address] },
    lines: d.lines.map((l) => ({
      description: l.description,
      sku: l.sku,
      quantity: l.quantity,
      unit_price: maybe(l.unit_price_minor),
      tax: maybe(l.tax_minor),
      amount: major(l.amount_minor),
    })),
    totals: {
      subtotal: major(d.totals.subtotal_minor),
      shipping: major(d.totals.shipping_minor),
      discount: major(d.totals.discount_minor),
      tax: major(d.totals.tax_minor),
      total: major(d.totals.total_minor),
    },
    tax_inclusive: d.tax_inclusive,
    tax_rate: d.tax_rate,
    currency: d.currency,
    url,
  };
}

const Party = {
  name: Type.String(),
  address: Type.Array(Type.String(), { description: 'postal address, one line per entry' }),
  email: Nullable(Type.String()),
  vat_id: Nullable(Type.String()),
};

export const OrderDocumentResponse = describes<OrderDocumentView>()(
  Type.Object({
    id: Type.Integer(),
    type: Type.Union([Type.Literal('invoice'), Type.Literal('credit_note')]),
    number: Type.String({
      description: '`INV-2026-000123`, `CN-2026-000045`: gap-free per seller, kind and year',
    }),
    issued_at: Type.String(),
    order_id: Type.Integer(),
    refers_to: Nullable(Type.String({ description: 'the invoice a credit note corrects' })),
    seller: Type.Object({
      type: Type.Union([Type.Literal('platform'), Type.Literal('organization')], {
        description: 'the seller of record: the platform (merchant of record) or the organization',
      }),
      ...Party,
    }),
    buyer: Type.Object(Party),
    lines: Type.Array(
      Type.Object({
        description: Type.String(),
        sku: Nullable(Type.String()),
        quantity: Type.Integer(),
        unit_price: Nullable(Type.Number()),
        tax: Nullable(Type.Number({ description: 'null on credit notes (their tax is in the totals)' })),
        amount: Type.Number(),
      }),
    ),
    totals: Type.Object({
      subtotal: Type.Number(),
      shipping: Type.Number(),
      discount: Type.Number(),
      tax: Type.Number(),
      total: Type.Number(),
    }),
    tax_inclusive: Type.Boolean({ description: 'prices include the tax: `tax` is within `total`' }),
    tax_rate: Nullable(Type.Number({ description: 'percent' })),
    currency: Type.String(),
    url: Type.String({ description: 'the path of the document’s PDF' }),
  }),
);

export const OrderDocumentsResponse = Type.Object({ documents: Type.Array(OrderDocumentResponse) });
