/**
 * An order's `config` checked against the product's config options: each option's value (or its
 * default), of its type and within its options; required ones present; no field the product does
 * not have. Answers the stored config (typed values) or the 422 problems, each naming its field.
 */
import type { ValidationProblem } from '../../kernel/errors/app-error.ts';
import type { OfferOption } from '../catalog/index.ts';
import type { OrderInvoiceLine } from './services-interfaces.ts';

export type ConfigValue = string | number | boolean;

type Typed = { ok: true; value: ConfigValue } | { ok: false; msg: string };

export function checkOrderConfig(
  options: readonly OfferOption[],
  input: Readonly<Record<string, unknown>>,
): { ok: true; config: Record<string, ConfigValue> } | { ok: false; problems: ValidationProblem[] } {
  const problems: ValidationProblem[] = [];
  const config: Record<string, ConfigValue> = {};
  const problem = (field: string, msg: string, value: unknown, type = 'value_error') =>
    problems.push({ type, loc: ['body', 'config', field], msg, input: value, ctx: {} });
  const known = new Set(options.map((o) => o.field_name));
  for (const field of Object.keys(input))
    if (!known.has(field))
      problem(field, 'Not a config option of this product', input[field], 'extra_forbidden');
  for (const o of options) {
    const given = input[o.field_name];
    const value = given === undefined || given === null ? o.default_value : given;
    if (value === null || value === undefined || value === '') {
      if (o.required) problem(o.field_name, 'Field required', given ?? null, 'missing');
      continue;
    }
    const typed = typedValue(o, value);
    if (typed.ok) config[o.field_name] = typed.value;
    else problem(o.field_name, typed.msg, value);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, config };
}

function typedValue(o: OfferOption, value: unknown): Typed {
  const opts = (o.options ?? {}) as Record<string, unknown>;
  const fail = (msg: string): Typed => ({ ok: false, msg });
  switch (o.field_type) {
    case 'number': {
      const n =
        typeof value === 'number'
          ? value
          : typeof value === 'string' && value.trim() !== ''
            ? Number(value)
            : NaN;
      if (!Number.isFinite(n)) return fail('Input should be a valid number');
      if (typeof opts.min === 'number' && n < opts.min)
        return fail(`Input should be greater than or equal to ${opts.min}`);
      if (typeof opts.max === 'number' && n > opts.max)
        return fail(`Input should be less than or equal to ${opts.max}`);
      return { ok: true, value: n };
    }
    case 'boolean':
      if (typeof value === 'boolean') return { ok: true, value };
      if (value === 'true' || value === 'false') return { ok: true, value: value === 'true' };
      return fail('Input should be a valid boolean');
    case 'select': {
      const values = Array.isArray(opts.values) ? (opts.values as string[]) : [];
      return typeof value === 'string' && values.includes(value)
        ? { ok: true, value }
        : fail(`Input should be one of: ${values.join(', ')}`);
    }
    default: {
      if (typeof value !== 'string') return fail('Input should be a valid string');
      if (typeof opts.max_length === 'number' && value.length > opts.max_length)
        return fail(`String should have at most ${opts.max_length} characters`);
      if (typeof opts.pattern === 'string' && !new RegExp(opts.pattern).test(value))
        return fail(`String should match pattern '${opts.pattern}'`);
      return { ok: true, value };
    }
  }
}

/** A decimal string that is zero ("0", "0.00"): compared as text, never through a float. */
const isZero = (decimal: string): boolean => /^0*(\.0*)?$/.test(decimal.replace(/^-/, ''));

/**
 * The invoice lines the chosen options add to a period's price: a boolean option its
 * `price_modifier` when true, a number option the modifier per unit (whole quantities; the value
 * as the quantity), a select or text option the modifier once when set.
 */
export function optionPriceLines(
  options: readonly OfferOption[],
  config: Readonly<Record<string, ConfigValue>>,
): OrderInvoiceLine[] {
  const lines: OrderInvoiceLine[] = [];
  for (const o of options) {
    const value = config[o.field_name];
    if (isZero(o.price_modifier) || value === undefined || value === false || value === '') continue;
    if (o.field_type === 'number') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) continue;
      lines.push({ description: `${o.label}: ${value}`, quantity: value, unitPrice: o.price_modifier });
    } else
      lines.push({
        description: value === true ? o.label : `${o.label}: ${String(value)}`,
        quantity: 1,
        unitPrice: o.price_modifier,
      });
  }
  return lines;
}
