import type { Transaction } from 'kysely';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { CommerceContext } from '../commerce-context.ts';
import {
  alreadyTaken,
  categoryNotFound,
  collectionNotFound,
  handleTaken,
  productNotFound,
  skuTaken,
  stillInUse,
  variantNotFound,
} from '../commerce-errors.ts';
import type { CommerceProductVariantRow, CommerceTables } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { currencyCodeOf, minorUnits } from '../money/money-amounts.ts';
import { isUniqueViolation } from '../shared/unique-violation.ts';
import { ShopCatalogRepository, type ProductFields, type ProductRow } from './shop-catalog-repository.ts';
import {
  categoryView,
  collectionView,
  productDetailView,
  type CategoryView,
  type CollectionView,
  type ProductDetailView,
} from './shop-catalog-view.ts';

type Loc = readonly (string | number)[];
type ProductOption = { title: string; values: string[] };

export interface VariantInput {
  title: string;
  sku?: string | null;
  options?: Record<string, string>;
  prices?: { currency_code: string; amount: number }[];
  manage_inventory?: boolean;
  allow_backorder?: boolean;
  weight?: number | null;
  rank?: number;
}

export interface ProductInput {
  title: string;
  handle?: string;
  subtitle?: string | null;
  description?: string | null;
  status?: 'draft' | 'published';
  images?: string[];
  options?: ProductOption[];
  weight?: number | null;
  collection_id?: number | null;
  shipping_profile_id?: number | null;
  is_gift_card?: boolean;
  category_ids?: number[];
  sales_channel_ids?: number[];
  variants?: VariantInput[];
}

export interface CategoryInput {
  name: string;
  handle?: string;
  parent_id?: number | null;
  is_active?: boolean;
  is_public?: boolean;
  rank?: number;
}

/** A handle from a title, as Medusa derives one: "Blue T-Shirt" → "blue-t-shirt". */
export function handleOf(title: string): string {
  const handle = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return handle === '' ? 'item' : handle;
}

/**
 * The catalogue (Medusa's product model): products with options, variants that pick one value of
 * each option and carry a SKU (unique in the shop) and one price per currency (integer minor
 * units), images as URLs, a collection, categories in a tree, the sales channels they are sold in.
 */
export class ShopCatalogService {
  private readonly repo: ShopCatalogRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
  ) {
    this.repo = new ShopCatalogRepository(ctx.db);
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }

  async product(orgId: number, id: number): Promise<ProductDetailView> {
    const graph = await this.repo.graph(orgId, id);
    if (graph === null) throw productNotFound();
    return productDetailView(graph);
  }

  async createProduct(orgId: number, input: ProductInput): Promise<ProductDetailView> {
    const options = input.options ?? [];
    checkOptionTitles(options, ['body', 'options']);
    const variants = (input.variants ?? []).map((v, i) => variantFields(v, options, ['body', 'variants', i]));
    checkCombinations(
      variants.map((v) => v.options),
      (i) => ['body', 'variants', i, 'options'],
    );
    const skus = variants.map((v) => v.sku).filter((s): s is string => s !== null);
    const dup = skus.find((s, i) => skus.indexOf(s) !== i);
    if (dup !== undefined) throw skuTaken(dup);
    const handle = input.handle ?? handleOf(input.title);
    return this.write(orgId, async (trx) => {
      const repo = this.repo.withTx(trx);
      await this.checkReferences(repo, orgId, input);
      if (await repo.handleTaken(orgId, handle, null)) throw handleTaken('product', handle);
      const taken = await repo.skusTaken(orgId, skus, null);
      if (taken.length > 0) throw skuTaken(taken[0]!);
      const at = this.now();
      const product = await repo.insertProduct(
        orgId,
        {
          title: input.title,
          handle,
          status: input.status ?? 'draft',
          subtitle: input.subtitle ?? null,
          description: input.description ?? null,
          images: input.images ?? [],
          options,
          weight: input.weight ?? null,
          collection_id: input.collection_id ?? null,
          shipping_profile_id: input.shipping_profile_id ?? null,
          is_gift_card: input.is_gift_card ?? false,
        },
        at,
      );
      const id = Number(product.id);
      await repo.setCategories(id, input.category_ids ?? []);
      await repo.setSalesChannels(id, input.sales_channel_ids ?? []);
      for (const [i, v] of variants.entries()) {
        const variantId = await repo.insertVariant(orgId, id, { ...v.fields, rank: v.fields.rank ?? i }, at);
        await repo.setPrices(variantId, v.prices);
      }
      const view = productDetailView((await repo.graph(orgId, id))!);
      return { result: view, events: [['commerce.product.created', { id, handle }]] };
    });
  }

  async updateProduct(orgId: number, id: number, input: Partial<ProductInput>): Promise<ProductDetailView> {
    if (input.options !== undefined) checkOptionTitles(input.options, ['body', 'options']);
    if (input.title === undefined && Object.keys(input).length === 0) return this.product(orgId, id);
    return this.write(orgId, async (trx) => {
      const repo = this.repo.withTx(trx);
      const current = await repo.product(orgId, id);
      if (current === null) throw productNotFound();
      await this.checkReferences(repo, orgId, input);
      if (input.handle !== undefined && (await repo.handleTaken(orgId, input.handle, id)))
        throw handleTaken('product', input.handle);
      if (input.options !== undefined) {
        const variants = await repo.variants(id);
        for (const v of variants)
          if (optionsProblem(input.options, v.options) !== null)
            throw invalidField(
              ['body', 'options'],
              `Variant ${v.id} has no values for these options`,
              input.options,
            );
      }
      const { category_ids, sales_channel_ids, variants: _variants, ...fields } = input;
      await repo.updateProduct(orgId, id, fields as Partial<ProductFields>, this.now());
      if (category_ids !== undefined) await repo.setCategories(id, category_ids);
      if (sales_channel_ids !== undefined) await repo.setSalesChannels(id, sales_channel_ids);
      return {
        result: productDetailView((await repo.graph(orgId, id))!),
        events: [['commerce.product.updated', { id }]],
      };
    });
  }

  async deleteProduct(orgId: number, id: number): Promise<{ id: number; deleted: boolean }> {
    return this.write(orgId, async (trx) => {
      if (!(await this.repo.withTx(trx).deleteProduct(orgId, id))) throw productNotFound();
      return { result: { id, deleted: true }, events: [['commerce.product.deleted', { id }]] };
    });
  }

  async createVariant(orgId: number, productId: number, input: VariantInput): Promise<ProductDetailView> {
    return this.write(orgId, async (trx) => {
      const repo = this.repo.withTx(trx);
      const product = await this.productOrThrow(repo, orgId, productId);
      const v = variantFields(input, product.options, ['body']);
      const siblings = await repo.variants(productId);
      checkCombinations([...siblings.map((s) => s.options), v.options], () => ['body', 'options']);
      if (v.sku !== null && (await repo.skusTaken(orgId, [v.sku], null)).length > 0) throw skuTaken(v.sku);
      const at = this.now();
      const variantId = await repo.insertVariant(
        orgId,
        productId,
        { ...v.fields, rank: v.fields.rank ?? siblings.length },
        at,
      );
      await repo.setPrices(variantId, v.prices);
      await repo.touchProduct(productId, at);
      return {
        result: productDetailView((await repo.graph(orgId, productId))!),
        events: [['commerce.product_variant.created', { id: variantId, product_id: productId }]],
      };
    });
  }

  async updateVariant(
    orgId: number,
    productId: number,
    variantId: number,
    input: Partial<VariantInput>,
  ): Promise<ProductDetailView> {
    return this.write(orgId, async (trx) => {
      const repo = this.repo.withTx(trx);
      const product = await this.productOrThrow(repo, orgId, productId);
      const current = await repo.variant(orgId, productId, variantId);
      if (current === null) throw variantNotFound();
      const merged: VariantInput = {
        title: input.title ?? current.title,
        sku: input.sku !== undefined ? input.sku : current.sku,
        options: input.options ?? current.options,
        ...(input.prices !== undefined ? { prices: input.prices } : {}),
      };
      const v = variantFields(merged, product.options, ['body']);
      if (input.options !== undefined) {
        const siblings = (await repo.variants(productId)).filter((s) => Number(s.id) !== variantId);
        checkCombinations([...siblings.map((s) => s.options), v.options], () => ['body', 'options']);
      }
      if (v.sku !== null && (await repo.skusTaken(orgId, [v.sku], variantId)).length > 0)
        throw skuTaken(v.sku);
      const patch: Partial<CommerceProductVariantRow> = {
        title: v.fields.title,
        sku: v.sku,
        options: v.options,
        ...(input.manage_inventory !== undefined ? { manage_inventory: input.manage_inventory } : {}),
        ...(input.allow_backorder !== undefined ? { allow_backorder: input.allow_backorder } : {}),
        ...(input.weight !== undefined ? { weight: input.weight } : {}),
        ...(input.rank !== undefined ? { rank: input.rank } : {}),
      };
      const at = this.now();
      await repo.updateVariant(variantId, patch, at);
      if (input.prices !== undefined) await repo.setPrices(variantId, v.prices);
      await repo.touchProduct(productId, at);
      return {
        result: productDetailView((await repo.graph(orgId, productId))!),
        events: [['commerce.product_variant.updated', { id: variantId, product_id: productId }]],
      };
    });
  }

  async deleteVariant(orgId: number, productId: number, variantId: number): Promise<ProductDetailView> {
    return this.write(orgId, async (trx) => {
      const repo = this.repo.withTx(trx);
      await this.productOrThrow(repo, orgId, productId);
      if ((await repo.variant(orgId, productId, variantId)) === null) throw variantNotFound();
      await repo.deleteVariant(variantId);
      await repo.touchProduct(productId, this.now());
      return {
        result: productDetailView((await repo.graph(orgId, productId))!),
        events: [['commerce.product_variant.deleted', { id: variantId, product_id: productId }]],
      };
    });
  }

  // Collections

  async collections(orgId: number): Promise<CollectionView[]> {
    return (await this.repo.collections(orgId)).map(collectionView);
  }

  async createCollection(orgId: number, input: { title: string; handle?: string }): Promise<CollectionView> {
    const handle = input.handle ?? handleOf(input.title);
    return this.write(orgId, async (trx) => {
      const repo = this.repo.withTx(trx);
      if (await repo.collectionHandleTaken(orgId, handle, null)) throw handleTaken('collection', handle);
      const row = await repo.insertCollection(orgId, input.title, handle, this.now());
      return {
        result: collectionView(row),
        events: [['commerce.product_collection.created', { id: Number(row.id), handle }]],
      };
    });
  }

  async updateCollection(
    orgId: number,
    id: number,
    input: { title?: string; handle?: string },
  ): Promise<CollectionView> {
    return this.write(orgId, async (trx) => {
      const repo = this.repo.withTx(trx);
      if (input.handle !== undefined && (await repo.collectionHandleTaken(orgId, input.handle, id)))
        throw handleTaken('collection', input.handle);
      const row = await repo.updateCollection(orgId, id, input, this.now());
      if (row === null) throw collectionNotFound();
      return { result: collectionView(row), events: [['commerce.product_collection.updated', { id }]] };
    });
  }

  /** Deletes a collection; its products stay, in no collection. */
  async deleteCollection(orgId: number, id: number): Promise<{ id: number; deleted: boolean }> {
    return this.write(orgId, async (trx) => {
      if (!(await this.repo.withTx(trx).deleteCollection(orgId, id))) throw collectionNotFound();
      return { result: { id, deleted: true }, events: [['commerce.product_collection.deleted', { id }]] };
    });
  }

  // Categories

  async categories(orgId: number): Promise<CategoryView[]> {
    return (await this.repo.categories(orgId)).map(categoryView);
  }

  async createCategory(orgId: number, input: CategoryInput): Promise<CategoryView> {
    const handle = input.handle ?? handleOf(input.name);
    return this.write(orgId, async (trx) => {
      const repo = this.repo.withTx(trx);
      if (input.parent_id != null && (await repo.category(orgId, input.parent_id)) === null)
        throw invalidField(['body', 'parent_id'], 'Unknown category', input.parent_id);
      if (await repo.categoryHandleTaken(orgId, handle, null)) throw handleTaken('category', handle);
      const row = await repo.insertCategory(
        orgId,
        {
          name: input.name,
          handle,
          parent_id: input.parent_id ?? null,
          is_active: input.is_active ?? true,
          is_public: input.is_public ?? true,
          rank: input.rank ?? 0,
        },
        this.now(),
      );
      return {
        result: categoryView(row),
        events: [['commerce.product_category.created', { id: Number(row.id), handle }]],
      };
    });
  }

  /** Changes a category; a parent that is the category itself or one of its descendants answers 422. */
  async updateCategory(orgId: number, id: number, input: Partial<CategoryInput>): Promise<CategoryView> {
    return this.write(orgId, async (trx) => {
      const repo = this.repo.withTx(trx);
      if ((await repo.category(orgId, id)) === null) throw categoryNotFound();
      if (input.parent_id != null) {
        const all = await repo.categories(orgId);
        const parentOf = new Map(
          all.map((c) => [Number(c.id), c.parent_id === null ? null : Number(c.parent_id)]),
        );
        if (!parentOf.has(input.parent_id))
          throw invalidField(['body', 'parent_id'], 'Unknown category', input.parent_id);
        for (let at: number | null = input.parent_id; at !== null; at = parentOf.get(at) ?? null)
          if (at === id)
            throw invalidField(['body', 'parent_id'], 'A category cannot sit below itself', input.parent_id);
      }
      if (input.handle !== undefined && (await repo.categoryHandleTaken(orgId, input.handle, id)))
        throw handleTaken('category', input.handle);
      const row = await repo.updateCategory(orgId, id, input, this.now());
      return { result: categoryView(row!), events: [['commerce.product_category.updated', { id }]] };
    });
  }

  /** Deletes a category without children (else 409); its products stay. */
  async deleteCategory(orgId: number, id: number): Promise<{ id: number; deleted: boolean }> {
    return this.write(orgId, async (trx) => {
      const repo = this.repo.withTx(trx);
      if ((await repo.category(orgId, id)) === null) throw categoryNotFound();
      if (await repo.hasChildren(id)) throw stillInUse('category', 'child categories');
      await repo.deleteCategory(orgId, id);
      return { result: { id, deleted: true }, events: [['commerce.product_category.deleted', { id }]] };
    });
  }

  // Helpers

  private async productOrThrow(repo: ShopCatalogRepository, orgId: number, id: number): Promise<ProductRow> {
    const product = await repo.product(orgId, id);
    if (product === null) throw productNotFound();
    return product;
  }

  /** The ids a product body names must be the organization's: else 422 naming the field. */
  private async checkReferences(
    repo: ShopCatalogRepository,
    orgId: number,
    input: Partial<ProductInput>,
  ): Promise<void> {
    const checks = [
      [
        'collection_id',
        'commerce_product_collections',
        input.collection_id == null ? [] : [input.collection_id],
      ],
      [
        'shipping_profile_id',
        'commerce_shipping_profiles',
        input.shipping_profile_id == null ? [] : [input.shipping_profile_id],
      ],
      ['category_ids', 'commerce_product_categories', input.category_ids ?? []],
      ['sales_channel_ids', 'commerce_sales_channels', input.sales_channel_ids ?? []],
    ] as const;
    for (const [field, table, ids] of checks) {
      const found = await repo.existing(table, orgId, ids);
      const missing = ids.findIndex((id) => !found.has(id));
      if (missing >= 0)
        throw invalidField(
          field.endsWith('_ids') ? ['body', field, missing] : ['body', field],
          'Unknown id in this shop',
          ids[missing],
        );
    }
  }

  /** A unit of work with its events; a race lost on a unique handle or SKU answers 409, not 500. */
  private async write<T>(
    orgId: number,
    work: (
      trx: Transaction<CommerceTables>,
    ) => Promise<{ result: T; events: [`commerce.${string}`, Record<string, unknown>][] }>,
  ): Promise<T> {
    try {
      return await this.log.change(orgId, ({ trx }) => work(trx));
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyTaken();
      throw error;
    }
  }
}

function checkOptionTitles(options: readonly ProductOption[], loc: Loc): void {
  const titles = options.map((o) => o.title);
  const dup = titles.findIndex((t, i) => titles.indexOf(t) !== i);
  if (dup >= 0) throw invalidField([...loc, dup, 'title'], 'Option titles must differ', titles[dup]);
}

/** Why a variant's option values do not fit the product's options, or null when they do. */
function optionsProblem(options: readonly ProductOption[], chosen: Record<string, string>): string | null {
  const keys = Object.keys(chosen);
  for (const k of keys) if (!options.some((o) => o.title === k)) return `The product has no option "${k}"`;
  for (const o of options) {
    const value = chosen[o.title];
    if (value === undefined) return `A value of option "${o.title}" is required`;
    if (!o.values.includes(value)) return `"${value}" is not a value of option "${o.title}"`;
  }
  return null;
}

function checkCombinations(all: readonly Record<string, string>[], loc: (i: number) => Loc): void {
  const seen = new Set<string>();
  for (const [i, o] of all.entries()) {
    if (Object.keys(o).length === 0) continue;
    const key = JSON.stringify(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
    if (seen.has(key)) throw invalidField(loc(i), 'Another variant has these option values', o);
    seen.add(key);
  }
}

/** A variant body checked against its product's options, its prices turned into minor units. */
function variantFields(
  input: VariantInput,
  options: readonly ProductOption[],
  loc: Loc,
): {
  fields: Omit<
    CommerceProductVariantRow,
    'id' | 'org_id' | 'product_id' | 'created_at' | 'updated_at' | 'rank'
  > & {
    rank?: number;
  };
  options: Record<string, string>;
  sku: string | null;
  prices: { currency_code: string; amount: number }[];
} {
  const chosen = input.options ?? {};
  const problem = optionsProblem(options, chosen);
  if (problem !== null) throw invalidField([...loc, 'options'], problem, chosen);
  const prices: { currency_code: string; amount: number }[] = [];
  for (const [j, p] of (input.prices ?? []).entries()) {
    const code = currencyCodeOf(p.currency_code, [...loc, 'prices', j, 'currency_code']);
    if (prices.some((q) => q.currency_code === code))
      throw invalidField([...loc, 'prices', j, 'currency_code'], 'One price per currency', p.currency_code);
    prices.push({ currency_code: code, amount: minorUnits(p.amount, code, [...loc, 'prices', j, 'amount']) });
  }
  const sku = input.sku ?? null;
  return {
    fields: {
      title: input.title,
      sku,
      options: chosen,
      manage_inventory: input.manage_inventory ?? true,
      allow_backorder: input.allow_backorder ?? false,
      weight: input.weight ?? null,
      ...(input.rank !== undefined ? { rank: input.rank } : {}),
    },
    options: chosen,
    sku,
    prices,
  };
}
