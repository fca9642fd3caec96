import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fastJsonStringify from 'fast-json-stringify';

/**
 * The validators and response serializers of route schemas, made when a route first needs them
 * and kept for the process.
 *
 * Compiling every route's schemas when a server starts took about 3.3 s of each start (a
 * fast-json-stringify serializer builds an ajv instance of its own per schema): most routes of a
 * process are never called in its first seconds, and a second server in the same process (a
 * restart, the next test's node) has the same schemas. So each schema is compiled at its first
 * use, once per process, keyed by its JSON text (routes may build equal schemas afresh).
 */

const AJV_OPTIONS = {
  allErrors: true,
  verbose: true,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
} as const;

type Validate = ((data: unknown) => boolean) & { errors?: ValidateFunction['errors'] };
type Serialize = (data: unknown) => string;

let bodyAjv: Ajv | undefined;
let textAjv: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();
const serializers = new Map<string, Serialize>();

function ajvFor(httpPart: string | undefined): Ajv {
  // Query strings and paths arrive as text and are coerced to the schema's types; JSON bodies are
  // not: a number where a string belongs is an error, as the client sent the wrong type.
  if (httpPart === 'body')
    return (bodyAjv ??= addFormats.default(new Ajv({ ...AJV_OPTIONS, coerceTypes: false })));
  return (textAjv ??= addFormats.default(new Ajv({ ...AJV_OPTIONS, coerceTypes: 'array' })));
}

function compiledValidator(schema: object, httpPart: string | undefined): ValidateFunction {
  const key = `${httpPart === 'body' ? 'b' : 't'}${JSON.stringify(schema)}`;
  let validate = validators.get(key);
  if (validate === undefined) {
    validate = ajvFor(httpPart).compile(schema);
    validators.set(key, validate);
  }
  return validate;
}

/** Fastify's validator compiler: ajv's errors are read off the function after a failed call. */
export function lazyValidator({ schema, httpPart }: { schema: unknown; httpPart?: string }): Validate {
  let validate: ValidateFunction | undefined;
  const run: Validate = (data) => {
    validate ??= compiledValidator(schema as object, httpPart);
    const ok = validate(data) as boolean;
    run.errors = validate.errors;
    return ok;
  };
  return run;
}

/** Fastify's serializer compiler, as its default (fast-json-stringify, no shared schemas). */
export function lazySerializer({ schema }: { schema: unknown }): Serialize {
  let serialize: Serialize | undefined;
  return (data) => {
    if (serialize === undefined) {
      const key = JSON.stringify(schema);
      serialize = serializers.get(key);
      if (serialize === undefined) {
        serialize = fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]) as Serialize;
        serializers.set(key, serialize);
      }
    }
    return serialize(data);
  };
}
