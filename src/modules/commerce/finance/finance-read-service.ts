import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { beforeIdCursor } from './finance-paging.ts';
import { balanceView, ledgerTransactionView, type Balance } from './finance-view.ts';
import { LedgerRepository } from './ledger-repository.ts';
import { TaxReportRepository } from './tax-report-repository.ts';
import { taxReportRows } from './tax-report.ts';

/** The balance, the ledger's pages and a month's tax report: reads of the shop's money. */
export class FinanceReadService {
  private readonly ledger: LedgerRepository;
  private readonly taxes: TaxReportRepository;

  constructor(private readonly ctx: CommerceContext) {
    this.ledger = new LedgerRepository(ctx.db);
    this.taxes = new TaxReportRepository(ctx.db);
  }

  async balance(orgId: number): Promise<Balance> {
    return balanceView(await this.ledger.sums(orgId, new Date(this.ctx.clock.now())));
  }

  async ledgerPage(orgId: number, beforeId: number | undefined, limit: number) {
    const rows = await this.ledger.page(orgId, beforeId, limit);
    const shown = rows.slice(0, limit);
    const entries = await this.ledger.entriesOf(shown.map((t) => t.id));
    const views = rows.map((t) =>
      ledgerTransactionView(
        t,
        entries.filter((e) => e.transaction_id === t.id),
      ),
    );
    return beforeIdCursor('transactions', views, limit);
  }

  /** `month` YYYY-MM in UTC: orders placed and refunds made from its first instant to the next month's. */
  async taxReport(orgId: number, month: string) {
    const [year, m] = month.split('-').map(Number) as [number, number];
    const from = new Date(Date.UTC(year, m - 1, 1));
    const to = new Date(Date.UTC(year, m, 1));
    if (year < 2000) throw invalidField(['query', 'month'], 'A month from 2000 on', month);
    const [orders, refunds] = await Promise.all([
      this.taxes.orders(orgId, from, to),
      this.taxes.refunds(orgId, from, to),
    ]);
    return { month, countries: taxReportRows(orders, refunds) };
  }
}
