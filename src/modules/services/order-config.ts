/**
 * An order's `config` checked against the product's config options: each option's value (or its
 * default), of its type and within its options; required ones present; no field the product does
 * not have. Answers the stored config (typed values) or the 422 problems, each naming its field.
 */
import type { ValidationProblem } from '../../kernel/errors/app-error.ts';
import type { OfferOption } from '../catalog/index.ts';

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
