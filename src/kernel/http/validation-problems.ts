import type { FastifySchemaValidationError } from 'fastify';
import type { ValidationProblem } from '../errors/app-error.ts';

/** Fastify's names for the parts of a request → the names clients see in `loc`. */
const PART: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

const TYPE_NAMES: Record<string, [string, string]> = {
  integer: ['int_type', 'Input should be a valid integer'],
  number: ['float_type', 'Input should be a valid number'],
  string: ['string_type', 'Input should be a valid string'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  object: ['model_type', 'Input should be a valid object'],
  array: ['list_type', 'Input should be a valid list'],
  null: ['none_required', 'Input should be None'],
};

function pathOf(instancePath: string): (string | number)[] {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/**
 * Turns ajv's errors into the 422 `detail` entries ({type, loc, msg, input, ctx}:
 * docs/keys-and-limits.md, "Conventions every route follows"), one entry per problem, with `loc`
 * naming the request part and the field.
 */
export function toValidationProblems(
  errors: readonly FastifySchemaValidationError[],
  context: string,
): ValidationProblem[] {
  const part = PART[context] ?? context;
  const problems: ValidationProblem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const e = error as FastifySchemaValidationError & { data?: unknown };
    const params = e.params as Record<string, unknown>;
    const loc: (string | number)[] = [part, ...pathOf(e.instancePath)];
    let problem: ValidationProblem;
    switch (e.keyword) {
      case 'required':
        loc.push(String(params.missingProperty));
        problem = { type: 'missing', loc, msg: 'Field required', input: e.data ?? null };
        break;
      case 'additionalProperties':
        loc.push(String(params.additionalProperty));
        problem = {
          type: 'extra_forbidden',
          loc,
          msg: 'Extra inputs are not permitted',
          input: (e.data as Record<string, unknown> | undefined)?.[String(params.additionalProperty)] ?? null,
        };
        break;
      case 'type': {
        const wanted = String(params.type).split(',')[0]!;
        if (loc.length === 1 && part === 'body' && (e.data === undefined || e.data === null)) {
          problem = { type: 'missing', loc, msg: 'Field required', input: null };
          break;
        }
        const [type, msg] = TYPE_NAMES[wanted] ?? ['type_error', `Input should be of type ${wanted}`];
        problem = { type, loc, msg, input: e.data ?? null };
        break;
      }
      case 'minimum':
      case 'exclusiveMinimum': {
        const ge = e.keyword === 'minimum';
        problem = {
          type: ge ? 'greater_than_equal' : 'greater_than',
          loc,
          msg: `Input should be greater than${ge ? ' or equal to' : ''} ${String(params.limit)}`,
          input: e.data,
          ctx: { [ge ? 'ge' : 'gt']: params.limit },
        };
        break;
      }
      case 'maximum':
      case 'exclusiveMaximum': {
        const le = e.keyword === 'maximum';
        problem = {
          type: le ? 'less_than_equal' : 'less_than',
          loc,
          msg: `Input should be less than${le ? ' or equal to' : ''} ${String(params.limit)}`,
          input: e.data,
          ctx: { [le ? 'le' : 'lt']: params.limit },
        };
        break;
      }
      case 'minLength':
        problem = {
          type: 'string_too_short',
          loc,
          msg: `String should have at least ${String(params.limit)} character${params.limit === 1 ? '' : 's'}`,
          input: e.data,
          ctx: { min_length: params.limit },
        };
        break;
      case 'maxLength':
        problem = {
          type: 'string_too_long',
          loc,
          msg: `String should have at most ${String(params.limit)} characters`,
          input: e.data,
          ctx: { max_length: params.limit },
        };
        break;
      case 'minItems':
      case 'maxItems':
        problem = {
          type: e.keyword === 'minItems' ? 'too_short' : 'too_long',
          loc,
          msg: `List should have ${e.keyword === 'minItems' ? 'at least' : 'at most'} ${String(params.limit)} items`,
          input: e.data,
          ctx: { [e.keyword === 'minItems' ? 'min_length' : 'max_length']: params.limit },
        };
        break;
      case 'enum': {
        const allowed = (params.allowedValues as unknown[]).map((v) => `'${String(v)}'`);
        const expected =
          allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}` : allowed[0];
        problem = { type: 'enum', loc, msg: `Input should be ${expected}`, input: e.data, ctx: { expected } };
        break;
      }
      case 'const':
        problem = {
          type: 'literal_error',
          loc,
          msg: `Input should be '${String(params.allowedValue)}'`,
          input: e.data,
          ctx: { expected: params.allowedValue },
        };
        break;
      case 'pattern':
        problem = {
          type: 'string_pattern_mismatch',
          loc,
          msg: `String should match pattern '${String(params.pattern)}'`,
          input: e.data,
          ctx: { pattern: params.pattern },
        };
        break;
      case 'format':
        problem = {
          type: 'value_error',
          loc,
          msg: `Value is not a valid ${String(params.format)}`,
          input: e.data,
          ctx: { format: params.format },
        };
        break;
      case 'anyOf':
      case 'oneOf':
        // The branch errors already say what is wrong; this summary adds nothing.
        continue;
      default:
        problem = { type: 'value_error', loc, msg: e.message ?? 'Invalid value', input: e.data ?? null };
    }
    const key = `${problem.type}|${JSON.stringify(problem.loc)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ ctx: {}, ...problem });
  }
  return problems;
}
