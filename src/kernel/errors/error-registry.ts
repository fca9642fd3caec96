import { AppError, type ErrorDetail } from './app-error.ts';

/** One registered error: its code, status and how its body is made. */
export interface ErrorDefinition {
  readonly code: string;
  readonly status: number;
  /** The message as declared: text, or a sample made with placeholder arguments (documentation). */
  readonly example: ErrorDetail;
}

const registry = new Map<string, ErrorDefinition>();

/** What `defineError` answers: call it to make the error to throw. */
export type ErrorFactory<A extends unknown[]> = ((...args: A) => AppError) & { readonly code: string };

const CODE_RE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/**
 * Declares an error once, with a stable code (`<module>.<what>`), its status and its message —
 * fixed text, or a function of the values it names. Codes are unique across the product; a
 * second declaration of one code is a programming error caught at start.
 *
 *   export const zoneNotFound = defineError('dns.zone_not_found', 404, 'Zone not found');
 *   throw zoneNotFound();
 */
export function defineError(
  code: string,
  status: number,
  message: ErrorDetail,
  headers?: Readonly<Record<string, string>>,
): ErrorFactory<[]>;
export function defineError<A extends unknown[]>(
  code: string,
  status: number,
  message: ErrorDetail,
  headers: (...args: A) => Readonly<Record<string, string>>,
): ErrorFactory<A>;
export function defineError<A extends unknown[]>(
  code: string,
  status: number,
  message: (...args: A) => ErrorDetail,
  headers?: Readonly<Record<string, string>> | ((...args: A) => Readonly<Record<string, string>>),
): ErrorFactory<A>;
export function defineError<A extends unknown[]>(
  code: string,
  status: number,
  message: ErrorDetail | ((...args: A) => ErrorDetail),
  headers: Readonly<Record<string, string>> | ((...args: A) => Readonly<Record<string, string>>) = {},
): ErrorFactory<A> {
  if (!CODE_RE.test(code)) throw new Error(`error code "${code}" must read <module>.<what>`);
  if (registry.has(code)) throw new Error(`error code "${code}" is declared twice`);
  const example = typeof message === 'function' ? message(...(placeholders(message.length) as A)) : message;
  registry.set(code, { code, status, example });
  const make = (...args: A): AppError =>
    new AppError(
      status,
      typeof message === 'function' ? message(...args) : message,
      typeof headers === 'function' ? headers(...args) : headers,
      code,
    );
  return Object.assign(make, { code });
}

function placeholders(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `<${i}>`);
}

/** Every error declared so far (the OpenAPI document lists them per status). */
export function registeredErrors(): readonly ErrorDefinition[] {
  return [...registry.values()];
}
