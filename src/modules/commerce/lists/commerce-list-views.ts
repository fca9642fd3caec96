import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { CommerceGiftCardRow, CommerceOrderRow, CommerceProductRow } from '../commerce-tables.ts';

/** The lists' rows as the Commerce API shows them: without their organization (the path's). */
export type OrderView = JsonView<Omit<CommerceOrderRow, 'org_id'>>;
export type ProductView = JsonView<Omit<CommerceProductRow, 'org_id'>>;
export type GiftCardView = JsonView<Omit<CommerceGiftCardRow, 'org_id'>>;

const iso = (d: Date): string => new Date(d).toISOString();

type ListedRow = { id: number; org_id: number; created_at: Date };

/** Any listed row: its organization dropped, its id a number, created_at as text. */
export function listedView<R extends ListedRow>(
  r: R,
): Omit<R, 'org_id' | 'created_at'> & { created_at: string } {
  const { org_id: _org, created_at, ...rest } = r;
  return { ...rest, id: Number(r.id), created_at: iso(created_at) };
}

export function orderView(r: CommerceOrderRow): OrderView {
  return {
    ...listedView(r),
    customer_id: r.customer_id === null ? null : Number(r.customer_id),
    placed_at: iso(r.placed_at),
  };
}

export function productView(r: CommerceProductRow): ProductView {
  return { ...listedView(r), updated_at: iso(r.updated_at) };
}
