import type { Insights } from './insights-service.ts';

/**
 * The insights as CSV (RFC 4180: CRLF line ends, fields quoted when they hold a comma, a quote or a
 * line break, quotes doubled): a header row, then a row per day; one `revenue_<currency>` column
 * per currency (lower-case code), money as decimal strings in major units.
 */
export function insightsCsv(insights: Insights): string {
  const header = [
    'date',
    ...insights.currencies.map((c) => `revenue_${c.toLowerCase()}`),
    'orders',
    'new_customers',
    'active_services',
    'support_opened',
    'support_closed',
  ];
  const lines = [header];
  for (const r of insights.rows)
    lines.push([
      r.date,
      ...insights.currencies.map((c) => r.revenue[c] ?? '0'),
      String(r.orders),
      String(r.new_customers),
      String(r.active_services),
      String(r.support_opened),
      String(r.support_closed),
    ]);
  return lines.map((fields) => fields.map(quoted).join(',')).join('\r\n') + '\r\n';
}

function quoted(field: string): string {
  return /[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}
