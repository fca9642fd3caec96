/**
 * Reading a catalogue file: JSON, then its schema (catalog-file-schemas.ts), then what a schema
 * cannot say (unique ids and slugs, references, option defaults that fit their options, plan sizes
 * of host products, free prices that cost nothing). Every problem is one line naming its place,
 * `products[3].pricing[0].price: ...`; a file with any problem is not imported at all.
 */
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { locationByCode } from '../../../geo/geo-data.ts';
import {
  CATALOG_FILE_SCHEMAS,
  type CapacityFileData,
  type CatalogFile,
  type CatalogFileKind,
  type ContainersFileData,
  type OsTemplatesFileData,
  type ProductsFileData,
} from './catalog-file-schemas.ts';

export type CheckedFile = { ok: true; file: CatalogFile } | { ok: false; problems: string[] };

const ajv = addFormats.default(new Ajv({ allErrors: true, strict: false }));
const validators = Object.fromEntries(
  Object.entries(CATALOG_FILE_SCHEMAS).map(([kind, schema]) => [kind, ajv.compile(schema)]),
) as Record<CatalogFileKind, ReturnType<typeof ajv.compile>>;

/** `/products/3/pricing/0/price` → `products[3].pricing[0].price`. */
function placeOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : `${i === 0 ? '' : '.'}${part}`))
    .join('');
}

function schemaProblems(errors: readonly ErrorObject[]): string[] {
  const lines = new Set<string>();
  for (const e of errors) {
    // A union's branches each report; the branch errors say nothing the union's own line does not.
    if (e.keyword === 'const' || e.keyword === 'type') {
      if (errors.some((o) => o.keyword === 'anyOf' && o.instancePath === e.instancePath)) continue;
    }
    let place = placeOf(e.instancePath);
    let message = e.message ?? 'is not valid';
    if (e.keyword === 'required') place = [place, String(e.params.missingProperty)].filter(Boolean).join('.');
    if (e.keyword === 'additionalProperties') {
      place = [place, String(e.params.additionalProperty)].filter(Boolean).join('.');
      message = 'is not a field of this entry';
    }
    if (e.keyword === 'anyOf') message = 'is not one of the allowed values';
    lines.add(`${place || '(file)'}: ${message}`);
  }
  return [...lines];
}

/** Checks the text of a catalogue file; `expected` refuses a file of another kind. */
export function checkCatalogFile(text: string, expected?: CatalogFileKind): CheckedFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`(file): not JSON: ${(error as Error).message}`] };
  }
  const kind = (data as { kind?: unknown } | null)?.kind;
  if (typeof kind !== 'string' || !(kind in validators))
    return {
      ok: false,
      problems: [`kind: must be one of ${Object.keys(validators).join(', ')}`],
    };
  if (expected !== undefined && kind !== expected)
    return { ok: false, problems: [`kind: expected ${expected}, the file is ${kind}`] };
  const validate = validators[kind as CatalogFileKind];
  if (!validate(data)) return { ok: false, problems: schemaProblems(validate.errors ?? []) };
  const file = data as CatalogFile;
  const problems = semanticProblems(file);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, file };
}

function semanticProblems(file: CatalogFile): string[] {
  switch (file.kind) {
    case 'products':
      return productProblems(file);
    case 'capacity':
      return capacityProblems(file);
    case 'os_templates':
      return templateProblems(file);
    case 'containers':
      return containerProblems(file);
  }
}

/** Reports the second and later entries whose `key` repeats an earlier one. */
function duplicates<T>(
  items: readonly T[],
  key: (t: T) => string,
  place: (i: number) => string,
  what: string,
) {
  const seen = new Map<string, number>();
  const out: string[] = [];
  items.forEach((item, i) => {
    const k = key(item);
    const first = seen.get(k);
    if (first !== undefined) out.push(`${place(i)}: ${what} ${k} repeats ${place(first)}`);
    else seen.set(k, i);
  });
  return out;
}

function unknownLocations(codes: readonly string[], place: string): string[] {
  return codes
    .filter((c) => !locationByCode(c))
    .map((c) => `${place}: ${c} is no location of geo/locations.json`);
}

/** `duplicates` over the list at `at`, whose entries are `at[i]`. */
function repeatsIn<T>(items: readonly T[], at: string, what: string, key: (t: T) => string): string[] {
  return duplicates(items, key, (i) => `${at}[${i}]`, what);
}

type ProductEntry = ProductsFileData['products'][number];

function productProblems(file: ProductsFileData): string[] {
  const tiers = new Set(file.hardware_tiers.map((t) => t.id));
  return [
    ...repeatsIn(file.hardware_tiers, 'hardware_tiers', 'id', (t) => String(t.id)),
    ...repeatsIn(file.hardware_tiers, 'hardware_tiers', 'slug', (t) => t.slug),
    ...repeatsIn(file.products, 'products', 'id', (p) => String(p.id)),
    ...repeatsIn(file.products, 'products', 'slug', (p) => p.slug),
    ...priceAndOptionIdProblems(file.products),
    ...file.products.flatMap((p, i) => oneProductProblems(p, `products[${i}]`, tiers)),
  ];
}

/** Price and option ids are the rows' ids: unique in the whole file, not only in their product. */
function priceAndOptionIdProblems(products: readonly ProductEntry[]): string[] {
  const prices = products.flatMap((p, i) =>
    p.pricing.map((x, j) => ({ id: x.id, at: `products[${i}].pricing[${j}]` })),
  );
  const options = products.flatMap((p, i) =>
    p.config_options.map((x, j) => ({ id: x.id, at: `products[${i}].config_options[${j}]` })),
  );
  return [
    ...duplicates(
      prices,
      (x) => String(x.id),
      (k) => prices[k]!.at,
      'price id',
    ),
    ...duplicates(
      options,
      (x) => String(x.id),
      (k) => options[k]!.at,
      'option id',
    ),
  ];
}

/** One product at `at`: its references, its locations, its options and prices, its plan. */
function oneProductProblems(p: ProductEntry, at: string, tiers: ReadonlySet<number>): string[] {
  const tier =
    p.hardware_tier_id !== null && !tiers.has(p.hardware_tier_id)
      ? [`${at}.hardware_tier_id: ${p.hardware_tier_id} is no hardware tier of this file`]
      : [];
  return [
    ...tier,
    ...unknownLocations(p.locations, `${at}.locations`),
    ...repeatsIn(p.locations, `${at}.locations`, 'location', (c) => c),
    ...repeatsIn(p.config_options, `${at}.config_options`, 'field_name', (o) => o.field_name),
    ...p.pricing.flatMap((x, j) =>
      x.billing_cycle === 'free' && Number(x.price) !== 0
        ? [`${at}.pricing[${j}].price: a free billing cycle costs 0`]
        : [],
    ),
    ...p.config_options.flatMap((o, j) => {
      const problem = optionProblem(o.field_type, o.options, o.default_value);
      return problem === null ? [] : [`${at}.config_options[${j}]: ${problem}`];
    }),
    ...hostProductProblems(p, at),
  ];
}

/** A host product (vps, container) runs on a tier, says its size and is offered somewhere. */
function hostProductProblems(p: ProductEntry, at: string): string[] {
  if (p.module_name !== 'vps' && p.module_name !== 'container') return [];
  const out: string[] = [];
  if (p.hardware_tier_id === null)
    out.push(`${at}.hardware_tier_id: a ${p.module_name} product runs on a tier`);
  const disk = p.module_name === 'vps' ? 'disk_gb' : 'disk_mb';
  for (const key of ['memory_mb', disk])
    if (!Number.isInteger(p.metadata?.[key]))
      out.push(`${at}.metadata.${key}: a ${p.module_name} product says its size`);
  if (p.locations.length === 0) out.push(`${at}.locations: a ${p.module_name} product is offered somewhere`);
  return out;
}

/** What is wrong with an option's `options` and `default_value` for its type, or null. */
export function optionProblem(
  type: string,
  options: Record<string, unknown> | null,
  fallback: string | null,
): string | null {
  if (type === 'select') {
    const values = options?.values;
    if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string'))
      return 'options.values: a select lists its values (strings)';
    if (fallback !== null && !values.includes(fallback))
      return `default_value: ${fallback} is not one of options.values`;
  } else if (type === 'number') {
    const { min, max } = (options ?? {}) as { min?: unknown; max?: unknown };
    if ((min !== undefined && typeof min !== 'number') || (max !== undefined && typeof max !== 'number'))
      return 'options: min and max are numbers';
    if (typeof min === 'number' && typeof max === 'number' && min > max) return 'options: min is above max';
    if (fallback !== null) {
      const n = Number(fallback);
      if (fallback.trim() === '' || !Number.isFinite(n)) return `default_value: ${fallback} is not a number`;
      if ((typeof min === 'number' && n < min) || (typeof max === 'number' && n > max))
        return `default_value: ${fallback} is outside options`;
    }
  } else if (type === 'boolean') {
    if (fallback !== null && fallback !== 'true' && fallback !== 'false')
      return 'default_value: a boolean defaults to "true" or "false"';
  } else if (type === 'text') {
    const pattern = options?.pattern;
    if (pattern !== undefined) {
      if (typeof pattern !== 'string') return 'options.pattern: a regular expression as a string';
      try {
        new RegExp(pattern);
      } catch {
        return `options.pattern: ${pattern} is no regular expression`;
      }
    }
  }
  return null;
}

function capacityProblems(file: CapacityFileData): string[] {
  return [
    ...file.capacity.flatMap((c, i) => unknownLocations([c.location], `capacity[${i}].location`)),
    ...repeatsIn(
      file.capacity,
      'capacity',
      'location/module/tier',
      (c) => `${c.location}/${c.module}/${c.hardware_tier_id}`,
    ),
  ];
}

function templateProblems(file: OsTemplatesFileData): string[] {
  return [
    ...repeatsIn(file.os_templates, 'os_templates', 'id', (t) => String(t.id)),
    ...repeatsIn(file.os_templates, 'os_templates', 'slug', (t) => t.slug),
    ...file.os_templates.flatMap((t, i) =>
      unknownLocations(t.locations ?? [], `os_templates[${i}].locations`),
    ),
  ];
}

type SpecializationEntry = ContainersFileData['specializations'][number];

function containerProblems(file: ContainersFileData): string[] {
  const runtimes = new Set(file.runtimes.map((r) => r.slug));
  return [
    ...repeatsIn(file.runtimes, 'runtimes', 'uuid', (r) => r.uuid),
    ...repeatsIn(file.runtimes, 'runtimes', 'slug', (r) => r.slug),
    ...repeatsIn(file.specializations, 'specializations', 'uuid', (s) => s.uuid),
    ...repeatsIn(file.specializations, 'specializations', 'slug', (s) => s.slug),
    ...file.specializations.flatMap((s, i) => specializationProblems(s, `specializations[${i}]`, runtimes)),
  ];
}

/** One specialization at `at`: the runtimes it names are the file's, its versions unique. */
function specializationProblems(s: SpecializationEntry, at: string, runtimes: ReadonlySet<string>): string[] {
  const template =
    s.runtime_template_slug !== null && !runtimes.has(s.runtime_template_slug)
      ? [`${at}.runtime_template_slug: ${s.runtime_template_slug} is no runtime of this file`]
      : [];
  return [
    ...template,
    ...repeatsIn(s.versions, `${at}.versions`, 'version_id', (v) => v.version_id),
    ...s.versions.flatMap((v, j) =>
      v.recommended_runtime_slug !== null && !runtimes.has(v.recommended_runtime_slug)
        ? [
            `${at}.versions[${j}].recommended_runtime_slug: ${v.recommended_runtime_slug} is no runtime of this file`,
          ]
        : [],
    ),
  ];
}
