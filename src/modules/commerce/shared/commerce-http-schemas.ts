import { Type, type TObject, type TProperties, type TSchema } from 'typebox';

/** Schemas every Commerce feature's routes share: the path's organization, ids, pages, money. */
export const OrgSlugParams = Type.Object({ org_slug: Type.String({ minLength: 1, maxLength: 64 }) });

/** `{org_slug, <name>: id}`, or several ids. */
export const idParams = <N extends string>(...names: N[]) =>
  Type.Object({
    org_slug: Type.String({ minLength: 1, maxLength: 64 }),
    ...(Object.fromEntries(names.map((n) => [n, Type.Integer({ minimum: 1 })])) as Record<
      N,
      ReturnType<typeof Type.Integer>
    >),
  });

/** A list paged by limit/offset: the rows under `name`, the total `count`, the page asked. */
export const offsetPage = <T extends TSchema>(name: string, item: T) =>
  Type.Object({
    [name]: Type.Array(item),
    count: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
  });

/** A list paged by before_id: the rows under `name`, and the cursor of the next page (null at the end). */
export const beforeIdPage = <T extends TSchema>(name: string, item: T) =>
  Type.Object({ [name]: Type.Array(item), next_before_id: Type.Union([Type.Integer(), Type.Null()]) });

/** A whole list under one name (`{regions: [...]}`). */
export const listOf = <T extends TSchema>(name: string, item: T) => Type.Object({ [name]: Type.Array(item) });

/** `{id, deleted: true}` */
export const Deleted = Type.Object({ id: Type.Integer(), deleted: Type.Boolean() });

/** An ISO 4217 code in any case (upper case in answers); an unknown one answers 422. */
export const CurrencyCode = Type.String({
  minLength: 3,
  maxLength: 3,
  description: 'ISO 4217 currency code (EUR, JPY); answered in upper case',
});

/** An amount in the currency's major units (EUR 12.34, JPY 1200); stored in minor units. */
export const MajorAmount = Type.Number({
  minimum: 0,
  maximum: 1e12,
  description: 'major units of the currency (EUR 12.34; JPY 1200): no more decimals than it has',
});

export const Name = Type.String({ minLength: 1, maxLength: 200 });
export const Handle = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$',
  description: 'lower-case letters, digits and single hyphens; unique in the shop',
});
export const Text = Type.String({ maxLength: 5000 });
export const Metadata = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), {
  maxProperties: 50,
});

/** An update body: every field of the create body optional, nothing else. */
export const partialOf = <P extends TProperties>(create: TObject<P>) =>
  Type.Partial(create, { additionalProperties: false, minProperties: 1 });
