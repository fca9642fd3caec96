/**
 * Every error a client sees comes from here: a status and a stable message, rendered by the HTTP
 * kernel as {"detail": message} (or the 422 list form for validation problems).
 */
export interface ValidationProblem {
  readonly type: string;
  readonly loc: readonly (string | number)[];
  readonly msg: string;
  readonly input: unknown;
  readonly ctx?: Record<string, unknown>;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | readonly ValidationProblem[] | Record<string, unknown>,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(typeof detail === 'string' ? detail : `HTTP ${status}`);
    this.name = 'AppError';
  }
}

export const notFound = (message: string): AppError => new AppError(404, message);
export const conflict = (message: string): AppError => new AppError(409, message);
export const forbidden = (message: string): AppError => new AppError(403, message);
export const unauthorized = (): AppError =>
  new AppError(401, 'Not authenticated', { 'WWW-Authenticate': 'Bearer' });
export const tooManyRequests = (message: string, retryAfterSeconds: number): AppError =>
  new AppError(429, message, { 'Retry-After': String(retryAfterSeconds) });

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
