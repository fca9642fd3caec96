import type { Transaction } from 'kysely';
import type { OrgDirectory, OrgSummary } from '../orgs/index.ts';
import {
  BillingRepository,
  CustomerBillingRepository,
  type NewInvoice,
  type NewLine,
} from './billing-repository.ts';
import type { BillingTables, InvoiceRow, ProductMode } from './billing-tables.ts';
import { percentOf } from './money.ts';

/** A sale to an organization's storefront customer, as invoiced. */
export interface CustomerSale {
  readonly org: OrgSummary;
  readonly customerId: number;
  readonly productId: number;
  /** The customer's invoice as an account's would be (user_id: who ordered, org_id: the organization). */
  readonly invoice: NewInvoice;
  readonly lines: readonly NewLine[];
  readonly at: Date;
}

/**
 * Who sells to an organization's customers, by the organization's billing mode: `platform_mor`,
 * the platform (the organization is paid its share of each payment, a settlement); the
 * `merchant_of_record` organization itself (the platform bills the organization a wholesale
 * invoice of the same lines, to its owner's account); `hybrid`, per product (platform_mor unless
 * the organization set the product to merchant_of_record).
 */
export class CustomerSales {
  constructor(private readonly orgs: OrgDirectory) {}

  async org(orgId: number): Promise<OrgSummary | null> {
    return this.orgs.byId(orgId);
  }

  /** The mode a product is sold in (read through `trx`: it may hold the only connection). */
  async modeOf(org: OrgSummary, productId: number, trx: Transaction<BillingTables>): Promise<ProductMode> {
    if (org.billingMode === 'merchant_of_record') return 'merchant_of_record';
    if (org.billingMode !== 'hybrid') return 'platform_mor';
    const repo = new CustomerBillingRepository(trx);
    return (await repo.productMode(org.id, productId)) ?? 'platform_mor';
  }

  /**
   * Inside the caller's transaction: the customer's invoice and, when the organization sells, the
   * platform's wholesale invoice to the organization (its owner's account, no customer).
   */
  async invoice(
    trx: Transaction<BillingTables>,
    sale: CustomerSale,
  ): Promise<{ invoiceId: number; wholesaleId: number | null }> {
    const mode = await this.modeOf(sale.org, sale.productId, trx);
    const repo = new BillingRepository(trx);
    const own = await repo.insertInvoice(
      {
        ...sale.invoice,
        org_id: sale.org.id,
        customer_id: sale.customerId,
        seller: mode === 'merchant_of_record' ? 'organization' : 'platform',
      },
      sale.lines,
      sale.at,
    );
    if (mode !== 'merchant_of_record') return { invoiceId: own.id, wholesaleId: null };
    // The organization's own discounts (negative lines: its coupons) are its to give, not the
    // platform's: the wholesale invoice bills the lines as priced.
    const priced = sale.lines.filter((l) => l.amount_minor >= 0);
    const total = priced.reduce((sum, l) => sum + l.amount_minor, 0);
    const wholesale = await repo.insertInvoice(
      {
        ...sale.invoice,
        user_id: sale.org.ownerUserId,
        org_id: sale.org.id,
        customer_id: null,
        seller: 'platform',
        subtotal_minor: total,
        total_minor: total + sale.invoice.tax_minor,
      },
      priced,
      sale.at,
    );
    return { invoiceId: own.id, wholesaleId: wholesale.id };
  }

  /**
   * Inside the payment's transaction: the organization's share of a customer's payment to the
   * platform (fee = round(gross × platform_fee_percent / 100)).
   */
  async settle(
    trx: Transaction<BillingTables>,
    invoice: InvoiceRow,
    org: OrgSummary | null,
    grossMinor: number,
    at: Date,
  ): Promise<void> {
    if (invoice.customer_id === null || invoice.seller !== 'platform' || org === null) return;
    // numeric(5, 2) in the database: a decimal string, taken in integers (percentOf).
    const fee = percentOf(grossMinor, org.platformFeePercent) ?? 0;
    await new CustomerBillingRepository(trx).insertSettlement({
      invoice_id: invoice.id,
      org_id: org.id,
      gross_minor: grossMinor,
      fee_minor: fee,
      net_minor: grossMinor - fee,
      currency: invoice.currency,
      created_at: at,
    });
  }
}
