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

function productProblems(file: ProductsFileData): string[] {
  const out: string[] = [];
  const tiers = new Set(file.hardware_tiers.map((t) => t.id));
  out.push(
    ...duplicates(
      file.hardware_tiers,
      (t) => String(t.id),
      (i) => `hardware_tiers[${i}]`,
      'id',
    ),
  );
  out.push(
    ...duplicates(
      file.hardware_tiers,
      (t) => t.slug,
      (i) => `hardware_tiers[${i}]`,
      'slug',
    ),
  );
  out.push(
    ...duplicates(
      file.products,
      (p) => String(p.id),
      (i) => `products[${i}]`,
      'id',
    ),
  );
  out.push(
    ...duplicates(
      file.products,
      (p) => p.slug,
      (i) => `products[${i}]`,
      'slug',
    ),
  );
  const prices = file.products.flatMap((p, i) =>
    p.pricing.map((x, j) => ({ id: x.id, at: `products[${i}].pricing[${j}]` })),
  );
  out.push(
    ...duplicates(
      prices,
      (x) => String(x.id),
      (k) => prices[k]!.at,
      'price id',
    ),
  );
  const options = file.products.flatMap((p, i) =>
    p.config_options.map((x, j) => ({ id: x.id, at: `products[${i}].config_options[${j}]` })),
  );
  out.push(
    ...duplicates(
      options,
      (x) => String(x.id),
      (k) => options[k]!.at,
      'option id',
    ),
  );
  file.products.forEach((p, i) => {
    const at = `products[${i}]`;
    if (p.hardware_tier_id !== null && !tiers.has(p.hardware_tier_id))
      out.push(`${at}.hardware_tier_id: ${p.hardware_tier_id} is no hardware tier of this file`);
    out.push(...unknownLocations(p.locations, `${at}.locations`));
    out.push(
      ...duplicates(
        p.locations,
        (c) => c,
        (j) => `${at}.locations[${j}]`,
        'location',
      ),
    );
    out.push(
      ...duplicates(
        p.config_options,
        (o) => o.field_name,
        (j) => `${at}.config_options[${j}]`,
        'field_name',
      ),
    );
    p.pricing.forEach((x, j) => {
      if (x.billing_cycle === 'free' && Number(x.price) !== 0)
        out.push(`${at}.pricing[${j}].price: a free billing cycle costs 0`);
    });
    p.config_options.forEach((o, j) => {
      const problem = optionProblem(o.field_type, o.options, o.default_value);
      if (problem !== null) out.push(`${at}.config_options[${j}]: ${problem}`);
    });
    if (p.module_name === 'vps' || p.module_name === 'container') {
      if (p.hardware_tier_id === null)
        out.push(`${at}.hardware_tier_id: a ${p.module_name} product runs on a tier`);
      const disk = p.module_name === 'vps' ? 'disk_gb' : 'disk_mb';
      for (const key of ['memory_mb', disk])
        if (!Number.isInteger(p.metadata?.[key]))
          out.push(`${at}.metadata.${key}: a ${p.module_name} product says its size`);
      if (p.locations.length === 0)
        out.push(`${at}.locations: a ${p.module_name} product is offered somewhere`);
    }
  });
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
    ...duplicates(
      file.capacity,
      (c) => `${c.location}/${c.module}/${c.hardware_tier_id}`,
      (i) => `capacity[${i}]`,
      'location/module/tier',
    ),
  ];
}

function templateProblems(file: OsTemplatesFileData): string[] {
  return [
    ...duplicates(
      file.os_templates,
      (t) => String(t.id),
      (i) => `os_templates[${i}]`,
      'id',
    ),
    ...duplicates(
      file.os_templates,
      (t) => t.slug,
      (i) => `os_templates[${i}]`,
      'slug',
    ),
    ...file.os_templates.flatMap((t, i) =>
      unknownLocations(t.locations ?? [], `os_templates[${i}].locations`),
    ),
  ];
}

function containerProblems(file: ContainersFileData): string[] {
  const runtimes = new Set(file.runtimes.map((r) => r.slug));
  const out = [
    ...duplicates(
      file.runtimes,
      (r) => r.uuid,
      (i) => `runtimes[${i}]`,
      'uuid',
    ),
    ...duplicates(
      file.runtimes,
      (r) => r.slug,
      (i) => `runtimes[${i}]`,
      'slug',
    ),
    ...duplicates(
      file.specializations,
      (s) => s.uuid,
      (i) => `specializations[${i}]`,
      'uuid',
    ),
    ...duplicates(
      file.specializations,
      (s) => s.slug,
      (i) => `specializations[${i}]`,
      'slug',
    ),
  ];
  file.specializations.forEach((s, i) => {
    const at = `specializations[${i}]`;
    if (s.runtime_template_slug !== null && !runtimes.has(s.runtime_template_slug))
      out.push(`${at}.runtime_template_slug: ${s.runtime_template_slug} is no runtime of this file`);
    out.push(
      ...duplicates(
        s.versions,
        (v) => v.version_id,
        (j) => `${at}.versions[${j}]`,
        'version_id',
      ),
    );
    s.versions.forEach((v, j) => {
      if (v.recommended_runtime_slug !== null && !runtimes.has(v.recommended_runtime_slug))
        out.push(
          `${at}.versions[${j}].recommended_runtime_slug: ${v.recommended_runtime_slug} is no runtime of this file`,
        );
    });
  });
  return out;
}
