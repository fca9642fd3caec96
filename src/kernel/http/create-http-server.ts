import { randomUUID } from 'node:crypto';
import { Ajv } from 'ajv';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Logger } from '../log/logger.ts';
import { AppError, type ValidationProblem } from '../errors/app-error.ts';
import { bodyTooLarge, internalError, routeNotFound, unsupportedMediaType } from '../errors/kernel-errors.ts';
import { toValidationProblems } from './validation-problems.ts';

export interface HttpServerOptions {
  readonly logger: Logger;
  readonly bodyLimitBytes: number;
  readonly trustProxy: boolean;
}

/** Fastify's own type for JSON answers, which error answers keep. */
const JSON_TYPE = 'application/json; charset=utf-8';

const AJV_OPTIONS = {
  allErrors: true,
  verbose: true,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
} as const;

function jsonInvalid(message: string): ValidationProblem[] {
  return [
    { type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: {}, ctx: { error: message } },
  ];
}

/**
 * The HTTP kernel every module registers into: JSON schemas validated by ajv with every problem
 * reported (422 in the seed's shape), errors rendered from AppError only, no stack traces out,
 * a request id on every log line and answer.
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
  });

  // Query strings and paths arrive as text and are coerced to the schema's types; JSON bodies are
  // not: a number where a string belongs is an error, as the client sent the wrong type.
  const bodyAjv = new Ajv({ ...AJV_OPTIONS, coerceTypes: false });
  const textAjv = new Ajv({ ...AJV_OPTIONS, coerceTypes: 'array' });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object),
  );

  app.setSchemaErrorFormatter((errors, dataVar) => {
    const error = new AppError(422, toValidationProblems(errors, dataVar));
    return error as unknown as Error;
  });

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // Error bodies are written as made, not by the route's response serializer (which writes
  // only the fields a schema declares, in its order): 422 problems come in more than one key
  // order, and a detail may be an object. Routes' error schemas (error-schemas.ts) describe them.
  const answer = (reply: FastifyReply, status: number, body: { detail: unknown }): void => {
    void reply.code(status).type(JSON_TYPE).serializer(JSON.stringify).send(body);
  };

  const send = (reply: FastifyReply, error: AppError): void => {
    answer(reply.headers(error.headers).header('x-error-code', error.code), error.status, {
      detail: error.detail,
    });
  };

  app.setNotFoundHandler((_request, reply) => {
    send(reply, routeNotFound());
  });

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      send(reply, error);
      return;
    }
    const fe = error as FastifyError;
    if (fe.validation) {
      answer(reply, 422, { detail: toValidationProblems(fe.validation, fe.validationContext ?? 'body') });
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
    request.log.error({ err: error }, 'request failed');
    send(reply, internalError());
  });

  return app as unknown as FastifyInstance;
}
