/** The catalogue's billing cycles that renew, in months; `free` and `hourly` have no due date. */
const MONTHS: Readonly<Record<string, number>> = {
  monthly: 1,
  quarterly: 3,
  semiannually: 6,
  annually: 12,
  biennially: 24,
  triennially: 36,
};

/** `from` moved one cycle on (calendar months, UTC; the 31st of a short month falls on its last day), or null. */
export function oneCycleAfter(from: Date, cycle: string): Date | null {
  const months = MONTHS[cycle];
  if (months === undefined) return null;
  const d = new Date(from.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}
