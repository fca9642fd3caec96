import { randomUUID } from 'node:crypto';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Logger } from '../log/logger.ts';
import { LazyChildLogger } from '../log/lazy-child-logger.ts';
import { AppError, BareBodyError, type ValidationProblem } from '../errors/app-error.ts';
import {
  backendUnavailable,
  bodyTooLarge,
  internalError,
  routeNotFound,
  unsupportedMediaType,
} from '../errors/kernel-errors.ts';
import { boundIntegers, isOutOfRangePathId } from './id-bounds.ts';
import { lazySerializer, lazyValidator } from './schema-compilers.ts';
import { redactProblem } from './secret-fields.ts';
import { toValidationProblems } from './validation-problems.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Every body field is optional: no body, or an empty JSON body, reads as {}. */
    optionalBody?: boolean;
    /**
     * The route also takes `application/x-www-form-urlencoded`, read into an object of strings by a
     * parser its module registers in the route's own scope (the body schema takes those strings).
     */
    formBody?: boolean;
  }
}

export interface HttpServerOptions {
  readonly logger: Logger;
  readonly bodyLimitBytes: number;
  readonly trustProxy: boolean;
}

/** Fastify's own type for JSON answers, which error answers keep. */
const JSON_TYPE = 'application/json; charset=utf-8';

/** The deepest JSON a body may nest (objects and arrays); deeper is 422 json_invalid. */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of objects and arrays in JSON text, strings skipped; stops past the limit. */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > deepest) deepest = depth;
      if (deepest > MAX_JSON_DEPTH) return deepest;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/**
 * The 422 for a body that is not JSON. V8's parse errors quote the text they choke on
 * (`"password=..." is not valid JSON`): the quote goes, as the body may hold a secret.
 */
function jsonInvalid(parseMessage: string): ValidationProblem[] {
  const message = parseMessage
    .replace(/,?\s*"[\s\S]*"(\.\.\.)? is not valid JSON$/, ' is not valid JSON')
    .slice(0, 200);
  return [
    { type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: {}, ctx: { error: message } },
  ];
}

/**
 * The HTTP kernel every module registers into: JSON schemas validated by ajv with every problem
 * reported (422 with one `detail` entry per problem), errors rendered from AppError only, no stack
 * traces out, a request id on every log line and answer.
 */
export function createHttpServer(options: HttpServerOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: options.logger,
    // No line per request at the default level: the edge logs errors only.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimitBytes,
    trustProxy: options.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // A request's child logger is made at its first line (lazy-child-logger.ts).
    childLoggerFactory: (logger, bindings, childOptions) =>
      new LazyChildLogger(logger as Logger, bindings, childOptions) as unknown as Logger,
  });

  // ajv for requests (bodies strict, query strings and paths coerced), fast-json-stringify for
  // answers: each schema compiled at its first use, once per process (schema-compilers.ts).
  app.setValidatorCompiler(lazyValidator);
  app.setSerializerCompiler(lazySerializer);

  // Ids past what a column holds fail validation, not the query (id-bounds.ts): every integer a
  // request carries without a bound of its own gets one, before the route's validators are made.
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    if (schema === undefined) return;
    for (const part of ['params', 'querystring', 'body', 'headers']) boundIntegers(schema[part]);
  });

  app.setSchemaErrorFormatter((errors, dataVar) => {
    // A path naming an id no column can hold names nothing: 404, as for an id that does not exist.
    if (dataVar === 'params' && isOutOfRangePathId(errors)) return routeNotFound() as unknown as Error;
    const error = new AppError(422, toValidationProblems(errors, dataVar));
    return error as unknown as Error;
  });

  // Hooks every request runs are callback hooks, not async ones: a promise a hook a request adds
  // up where a route answers in a fraction of a millisecond (the public ingestion route).
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });

  // A route whose body fields are all optional (config.optionalBody) also takes no body at all, or
  // a zero-byte body sent as application/json; every other route answers 422 for a missing body.
  // JSON is the one body type the API reads: Fastify's text/plain parser goes too, so a body of any
  // other type is 415 before it is read, and nothing of it can come back in an answer.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    const body = text as string;
    if (body.trim() === '') return done(null, undefined);
    // No route takes anything this deep; deeper input only costs stack in every walker after
    // the parser (validation, redaction), where thousands of levels overflow it.
    if (nestingDepth(body) > MAX_JSON_DEPTH) {
      return done(
        new AppError(
          422,
          jsonInvalid(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`),
        ) as unknown as Error,
        undefined,
      );
    }
    try {
      done(null, JSON.parse(body) as unknown);
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.addHook('preValidation', (request, _reply, done) => {
    done(bodyProblem(request));
  });

  // Error bodies are written as made, not by the route's response serializer (which writes
  // only the fields a schema declares, in its order): 422 problems come in more than one key
  // order, and a detail may be an object. Routes' error schemas (error-schemas.ts) describe them.
  const answer = (reply: FastifyReply, status: number, body: { detail: unknown }): void => {
    void reply.code(status).type(JSON_TYPE).serializer(JSON.stringify).send(body);
  };

  const send = (reply: FastifyReply, error: AppError): void => {
    if (error instanceof BareBodyError) {
      void reply
        .code(error.status)
        .header('x-error-code', error.code)
        .type(JSON_TYPE)
        .serializer(JSON.stringify)
        .send(error.body);
      return;
    }
    const detail = Array.isArray(error.detail)
      ? (error.detail as ValidationProblem[]).map(redactProblem)
      : error.detail;
    answer(reply.headers(error.headers).header('x-error-code', error.code), error.status, { detail });
  };

  app.setNotFoundHandler((_request, reply) => {
    send(reply, routeNotFound());
  });

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    try {
      handleError(error, request, reply);
    } catch (failure) {
      // The handler itself failed: still the kernel's 500, logged with the request id.
      request.log.error({ err: failure, cause: error }, 'request failed');
      answer(reply.header('x-error-code', internalError.code), 500, { detail: 'Internal Server Error' });
    }
  });

  const handleError = (
    error: FastifyError | AppError,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void => {
    if (error instanceof AppError) {
      send(reply, error);
      return;
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      if (fe.validationContext === 'params' && isOutOfRangePathId(fe.validation)) {
        send(reply, routeNotFound());
        return;
      }
      send(reply, new AppError(422, toValidationProblems(fe.validation, fe.validationContext ?? 'body')));
      return;
    }
    switch (fe.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        answer(reply, 422, { detail: jsonInvalid(fe.message) });
        return;
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        answer(reply, 422, {
          detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null, ctx: {} }],
        });
        return;
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        send(reply, bodyTooLarge());
        return;
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        send(reply, unsupportedMediaType());
        return;
    }
    if (error instanceof SyntaxError || (fe.statusCode === 400 && /JSON/i.test(fe.message))) {
      answer(reply, 422, { detail: jsonInvalid(fe.message) });
      return;
    }
    if (fe.statusCode !== undefined && fe.statusCode >= 400 && fe.statusCode < 500) {
      answer(reply, fe.statusCode, { detail: fe.message });
      return;
    }
    if (isBackendOutage(error)) {
      request.log.warn({ err: error }, 'request failed: a backend does not answer');
      send(reply, backendUnavailable());
      return;
    }
    request.log.error({ err: error }, 'request failed');
    send(reply, internalError());
  };

  return app as unknown as FastifyInstance;
}

/** Whether a Content-Type names JSON (`application/json`, with or without parameters). */
function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType.trim());
}

/** Whether a Content-Type names a URL-encoded form. */
/** Why a request's body cannot go to its route (415 or 422), or undefined when it can. */
function bodyProblem(request: FastifyRequest): Error | undefined {
  const config = request.routeOptions.config;
  // A module may read another type for a route of its own (a form post); a JSON route still
  // takes JSON alone.
  if (
    request.body !== undefined &&
    request.routeOptions.schema?.body !== undefined &&
    !isJson(request.headers['content-type']) &&
    !(config.formBody === true && isForm(request.headers['content-type']))
  ) {
    return unsupportedMediaType() as unknown as Error;
  }
  if (request.body !== undefined && request.body !== null) return undefined;
  if (config.optionalBody === true) {
    request.body = {};
  } else if (request.routeOptions.schema?.body !== undefined) {
    return new AppError(422, [
      { type: 'missing', loc: ['body'], msg: 'Field required', input: null, ctx: {} },
    ]) as unknown as Error;
  }
  return undefined;
}

function isForm(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType.trim());
}

/**
 * Whether a failure is PostgreSQL or Redis being away (refused, reset, timed out, ioredis giving up
 * on a command) rather than a bug: answered 503 with Retry-After, not 500.
 */
function isBackendOutage(error: unknown): boolean {
  const e = error as { name?: unknown; code?: unknown; message?: unknown };
  if (e.name === 'MaxRetriesPerRequestError') return true;
  if (typeof e.code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE'].includes(e.code))
    return true;
  return (
    typeof e.message === 'string' &&
    /Connection terminated|Connection is closed|timeout exceeded when trying to connect/i.test(e.message)
  );
}
