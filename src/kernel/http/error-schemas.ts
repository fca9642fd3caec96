import { Type, type TSchema } from 'typebox';

/**
 * The bodies of error answers as the HTTP kernel renders them (create-http-server.ts), for routes
 * to declare under `schema.response`, one entry per status they can answer, so the API's
 * description lists every answer. The kernel writes error bodies with JSON.stringify, not with
 * the route's serializer: these schemas describe the bodies and can never reshape or drop a field.
 */

/** A registered error (error-registry.ts); its stable code is in the X-Error-Code header. */
const errorBody = (description: string, example: string) =>
  Type.Object({ detail: Type.String() }, { description, examples: [{ detail: example }] });

/** One problem of a 422: its kind, where (`["body", "records", 0, "name"]`), the message, the value given. */
export const ValidationProblem = Type.Object({
  type: Type.String(),
  loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
  msg: Type.String(),
  input: Type.Unknown(),
  ctx: Type.Record(Type.String(), Type.Unknown()),
});

/** The statuses a route declares beside its success; each is answered in the body shown. */
export const ERROR_BODIES = {
  401: errorBody(
    'Not authenticated: no token, or one that is expired, revoked or of another realm',
    'Not authenticated',
  ),
  403: errorBody('Not allowed: the role is not enough, or a limit is reached', 'Not enough permissions'),
  404: errorBody('Not found, or not the caller’s', 'Zone not found'),
  409: errorBody('Conflicts with what exists', 'Zone already exists'),
  413: errorBody('Request body is too large', 'Request body is too large'),
  415: errorBody('The body is not JSON (Content-Type must be application/json)', 'Unsupported media type'),
  422: Type.Object(
    { detail: Type.Array(ValidationProblem) },
    {
      description: 'The request is invalid: every problem found',
      examples: [
        {
          detail: [
            {
              type: 'missing',
              loc: ['body', 'content'],
              msg: 'Field required',
              input: { name: 'www' },
              ctx: {},
            },
          ],
        },
      ],
    },
  ),
  402: errorBody('Payment required', 'Payment required'),
  503: errorBody(
    'PostgreSQL or Redis does not answer for now: try again after Retry-After',
    'Service temporarily unavailable',
  ),
  502: errorBody(
    'An upstream service (a certificate authority, a mail server) refused or failed',
    'Certificate authority unavailable',
  ),
  429: Type.Union(
    [
      Type.Object({ detail: Type.String() }),
      Type.Object({
        detail: Type.Object({
          error: Type.Literal('rate_limited'),
          message: Type.String(),
          action: Type.String(),
          retry_after_seconds: Type.Integer(),
        }),
      }),
      Type.Object({ error: Type.Literal('Too many requests') }),
    ],
    {
      description:
        'Too many requests: see Retry-After. The per-address request limit answers {"detail": "<message>"}, ' +
        'a per-action budget {"detail": {error, message, action, retry_after_seconds}}, the proxy limit {"error"}',
      examples: [
        { detail: 'Rate limit exceeded' },
        {
          detail: {
            error: 'rate_limited',
            message: 'Too many requests for this action. Please wait and try again.',
            action: 'user.mfa_verify',
            retry_after_seconds: 300,
          },
        },
        { error: 'Too many requests' },
      ],
    },
  ),
} as const satisfies Record<number, TSchema>;

export type ErrorStatus = keyof typeof ERROR_BODIES;

/**
 * The error entries of a route's `schema.response`:
 * `response: { 200: ZoneSchema, ...errorResponses(401, 404, 422, 429) }`.
 */
export function errorResponses<S extends ErrorStatus>(...statuses: S[]): Pick<typeof ERROR_BODIES, S> {
  const out = {} as Pick<typeof ERROR_BODIES, S>;
  for (const status of statuses) out[status] = ERROR_BODIES[status];
  return out;
}

/**
 * The error statuses the kernel itself answers on a route, whatever the route does: 429 from
 * the budgets and proxy limits, 401 from authentication unless the route is public, 422 from
 * validation when the route takes input, and on an organization's routes (`org:*` or a scope)
 * 404 for an organization the caller cannot see and 403 for a role or scope that is not enough. registerModule adds them to every module route's
 * `schema.response`, so a route declares only the statuses its own service answers (403, 404, 409).
 */
export function kernelErrorResponses(route: {
  readonly schema?: unknown;
  readonly config?: { readonly auth?: unknown };
}): Partial<typeof ERROR_BODIES> {
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  // 503: any route may meet PostgreSQL or Redis away.
  const statuses: ErrorStatus[] = [429, 503];
  const auth = route.config?.auth;
  if (auth !== 'public') statuses.push(401);
  if (typeof auth === 'object' || (typeof auth === 'string' && auth.startsWith('org:')))
    statuses.push(403, 404);
  if (schema.params !== undefined || schema.querystring !== undefined || schema.body !== undefined) {
    statuses.push(422);
  }
  return errorResponses(...statuses);
}
