/**
 * Every error a client sees is an AppError: a stable code, a status and a body, rendered by the
 * HTTP kernel as {"detail": ...} (or the 422 list form for validation problems). Errors with a
 * fixed meaning are declared once in a registry (error-registry.ts); this file holds the shape.
 */
export interface ValidationProblem {
  readonly type: string;
  readonly loc: readonly (string | number)[];
  readonly msg: string;
  readonly input: unknown;
  readonly ctx?: Record<string, unknown>;
}

export type ErrorDetail = string | readonly ValidationProblem[] | Readonly<Record<string, unknown>>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly detail: ErrorDetail,
    readonly headers: Readonly<Record<string, string>> = {},
    /** Stable machine-readable code (`dns.zone_not_found`), sent as the X-Error-Code header. */
    readonly code: string = defaultCode(status),
  ) {
    super(typeof detail === 'string' ? detail : `HTTP ${status}`);
    this.name = 'AppError';
  }
}

/**
 * An error whose contract gives a body of its own rather than {"detail": ...} (the services
 * list's `{"error": "invalid_resource_type", "allowed": [...]}`): the kernel writes `body` as is.
 */
export class BareBodyError extends AppError {
  constructor(
    status: number,
    readonly body: Readonly<Record<string, unknown>>,
    code: string,
  ) {
    super(status, body, {}, code);
  }
}

function defaultCode(status: number): string {
  return status === 422 ? 'validation_failed' : `http_${status}`;
}

/** A 422 that names one field of the request, in the same shape as schema validation failures. */
export function invalidField(
  loc: readonly (string | number)[],
  msg: string,
  input: unknown,
  type = 'value_error',
  ctx: Record<string, unknown> = {},
): AppError {
  return new AppError(422, [{ type, loc, msg, input, ctx }]);
}

export const invalidFields = (problems: readonly ValidationProblem[]): AppError =>
  new AppError(422, problems);
