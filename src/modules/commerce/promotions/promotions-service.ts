import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { currencyCodeOf, majorUnits, minorUnits } from '../money/money-amounts.ts';
import { isUniqueViolation } from '../shared/unique-violation.ts';
import { promotionCodeTaken, promotionNotFound } from './promotion-errors.ts';
import { promotionView, type PromotionView } from './promotion-view.ts';
import { PromotionsRepository, type PromotionInsert, type PromotionRow } from './promotions-repository.ts';

interface AmountInput {
  currency_code: string;
  amount: number;
}

export interface PromotionInput {
  code: string;
  kind: 'percentage' | 'fixed';
  value?: number;
  amounts?: AmountInput[];
  applies_to?: 'order' | 'items';
  product_ids?: number[];
  collection_ids?: number[];
  starts_at?: string | null;
  ends_at?: string | null;
  usage_limit?: number | null;
  per_customer_limit?: number | null;
  min_subtotals?: AmountInput[];
  is_automatic?: boolean;
  status?: 'active' | 'inactive' | 'draft';
}

type Fields = Omit<PromotionInsert, 'org_id' | 'created_at' | 'updated_at'>;

/**
 * Promotions of the Commerce API (docs/commerce.md, "Promotions"): created, read, changed and
 * deleted with `commerce.promotions:write`, each change announcing `commerce.promotion.<verb>`
 * in its transaction. A PATCH is checked as the whole promotion it leaves.
 */
export class PromotionsService {
  private readonly repo: PromotionsRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
  ) {
    this.repo = new PromotionsRepository(ctx.db);
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }

  async get(orgId: number, id: number): Promise<PromotionView> {
    const row = await this.repo.byId(orgId, id);
    if (row === null) throw promotionNotFound();
    return promotionView(row);
  }

  async create(orgId: number, input: PromotionInput): Promise<PromotionView> {
    const fields = fieldsOf(input);
    return this.guardCode(input.code, () =>
      this.log.change(orgId, async ({ trx }) => {
        const repo = this.repo.withTx(trx);
        await this.checkIds(repo, orgId, fields);
        if ((await repo.byCode(orgId, input.code)) !== null) throw promotionCodeTaken(input.code);
        const now = this.now();
        const id = await repo.insert({ ...fields, org_id: orgId, created_at: now, updated_at: now });
        const view = promotionView((await repo.byId(orgId, id))!);
        return { result: view, events: [['commerce.promotion.created', { id, code: view.code }]] };
      }),
    );
  }

  async update(orgId: number, id: number, input: Partial<PromotionInput>): Promise<PromotionView> {
    return this.guardCode(input.code ?? '', () =>
      this.log.change(orgId, async ({ trx }) => {
        const repo = this.repo.withTx(trx);
        const before = await repo.byId(orgId, id);
        if (before === null) throw promotionNotFound();
        const fields = fieldsOf({ ...inputOf(before), ...input });
        await this.checkIds(repo, orgId, fields);
        if (input.code !== undefined) {
          const holder = await repo.byCode(orgId, input.code);
          if (holder !== null && Number(holder.id) !== id) throw promotionCodeTaken(input.code);
        }
        await repo.update(orgId, id, { ...fields, updated_at: this.now() });
        const view = promotionView((await repo.byId(orgId, id))!);
        return { result: view, events: [['commerce.promotion.updated', { id, code: view.code }]] };
      }),
    );
  }

  /** Deletes it: carts lose the code; orders keep their discount and the code they used. */
  async delete(orgId: number, id: number): Promise<{ id: number; deleted: true }> {
    return this.log.change(orgId, async ({ trx }) => {
      if (!(await this.repo.withTx(trx).delete(orgId, id))) throw promotionNotFound();
      return { result: { id, deleted: true as const }, events: [['commerce.promotion.deleted', { id }]] };
    });
  }

  /** Two requests racing for one code: the loser answers 409 as a taken code does. */
  private async guardCode<T>(code: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw promotionCodeTaken(code);
      throw error;
    }
  }

  private async checkIds(repo: PromotionsRepository, orgId: number, f: Fields): Promise<void> {
    for (const [field, table] of [
      ['product_ids', 'commerce_products'],
      ['collection_ids', 'commerce_product_collections'],
    ] as const) {
      const ids = f[field] as number[];
      const missing = await repo.missingIds(orgId, table, ids);
      if (missing !== null)
        throw invalidField(['body', field, ids.indexOf(missing)], 'No such id in this shop', missing);
    }
  }
}

/**
 * The columns of a promotion from its whole input, or 422 naming the field: a percentage needs
 * `value` (2 decimals at most), a fixed one `amounts`; `items` needs products or collections;
 * `ends_at` after `starts_at`.
 */
function fieldsOf(input: PromotionInput): Fields {
  const percentage = input.kind === 'percentage';
  const value = input.value ?? 0;
  if (percentage && (value <= 0 || !/^\d+(\.\d{1,2})?$/.test(String(value))))
    throw invalidField(
      ['body', 'value'],
      'A percentage needs a value above 0, 2 decimals at most',
      input.value,
    );
  const amounts = minorMap(input.amounts ?? [], 'amounts');
  if (!percentage && Object.keys(amounts).length === 0)
    throw invalidField(['body', 'amounts'], 'A fixed promotion needs an amount in at least one currency', []);
  const appliesTo = input.applies_to ?? 'order';
  const productIds = [...new Set(input.product_ids ?? [])];
  const collectionIds = [...new Set(input.collection_ids ?? [])];
  if (appliesTo === 'items' && productIds.length + collectionIds.length === 0)
    throw invalidField(['body', 'product_ids'], 'Items promotions name products or collections', []);
  const startsAt = input.starts_at == null ? null : new Date(input.starts_at);
  const endsAt = input.ends_at == null ? null : new Date(input.ends_at);
  if (startsAt !== null && endsAt !== null && endsAt <= startsAt)
    throw invalidField(['body', 'ends_at'], 'ends_at must come after starts_at', input.ends_at);
  return {
    code: input.code.trim(),
    kind: input.kind,
    value: percentage ? String(input.value) : '0',
    status: input.status ?? 'active',
    amounts: percentage ? {} : amounts,
    applies_to: appliesTo,
    product_ids: appliesTo === 'items' ? productIds : [],
    collection_ids: appliesTo === 'items' ? collectionIds : [],
    starts_at: startsAt,
    ends_at: endsAt,
    usage_limit: input.usage_limit ?? null,
    per_customer_limit: input.per_customer_limit ?? null,
    min_subtotals: minorMap(input.min_subtotals ?? [], 'min_subtotals'),
    is_automatic: input.is_automatic ?? false,
  };
}

/** `[{currency_code, amount}]` (major units) → `{"EUR": 500}`; a currency twice is a 422. */
function minorMap(list: readonly AmountInput[], field: string): Record<string, number> {
  const out: Record<string, number> = {};
  list.forEach((a, i) => {
    const currency = currencyCodeOf(a.currency_code, ['body', field, i, 'currency_code']);
    if (out[currency] !== undefined)
      throw invalidField(['body', field, i, 'currency_code'], 'A currency given twice', a.currency_code);
    out[currency] = minorUnits(a.amount, currency, ['body', field, i, 'amount']);
  });
  return out;
}

/** A stored promotion as the input that would make it (what a PATCH is merged onto). */
function inputOf(r: PromotionRow): PromotionInput {
  const list = (m: Record<string, number>) =>
    Object.entries(m).map(([currency_code, minor]) => ({
      currency_code,
      amount: majorUnits(minor, currency_code),
    }));
  return {
    code: r.code,
    kind: r.kind === 'fixed' ? 'fixed' : 'percentage',
    value: Number(r.value),
    amounts: list(r.amounts),
    applies_to: r.applies_to,
    product_ids: r.product_ids.map(Number),
    collection_ids: r.collection_ids.map(Number),
    starts_at: r.starts_at === null ? null : new Date(r.starts_at).toISOString(),
    ends_at: r.ends_at === null ? null : new Date(r.ends_at).toISOString(),
    usage_limit: r.usage_limit,
    per_customer_limit: r.per_customer_limit,
    min_subtotals: list(r.min_subtotals),
    is_automatic: r.is_automatic,
    status: r.status as 'active',
  };
}
