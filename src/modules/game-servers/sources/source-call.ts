import type { SourceHttp } from './source-http.ts';

/** Why a call to a source gave no usable answer (the caller turns it into its own error). */
export class SourceCallFailed extends Error {}

export interface SourceCall {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/**
 * One JSON exchange with a source: the parsed answer, or null for a 404 (no such project or
 * build). Anything else that is not a 2xx with JSON — a refusal, a timeout, a 5xx, a 429, a body
 * that does not parse — is a SourceCallFailed naming what happened.
 */
export async function callSource(http: SourceHttp, call: SourceCall): Promise<unknown> {
  const headers = { accept: 'application/json', ...call.headers };
  let res;
  try {
    res =
      call.body === undefined
        ? await http.request(call.method, call.url, headers)
        : await http.request(
            call.method,
            call.url,
            { ...headers, 'content-type': 'application/json' },
            JSON.stringify(call.body),
          );
  } catch (error) {
    throw new SourceCallFailed(
      `could not be reached: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (res.status === 404) return null;
  if (res.status < 200 || res.status > 299) throw new SourceCallFailed(`answered HTTP ${res.status}`);
  try {
    return JSON.parse(res.body) as unknown;
  } catch {
    throw new SourceCallFailed('answered something other than JSON');
  }
}

/** `base` + `path` + the query (entries with undefined values left out, empty strings kept). */
export function sourceUrl(
  base: string,
  path: string,
  query: Readonly<Record<string, string | undefined>> = {},
): string {
  const url = new URL(base.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * Runs an adapter's call and mapping; an answer that is not in the documented shape (a missing
 * field, a date that does not parse) makes the source failed, as a 5xx does.
 */
export async function asSourceAnswer<T>(fail: (message: string) => Error, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SourceCallFailed) throw fail(error.message);
    if (error instanceof TypeError || error instanceof RangeError) {
      throw fail('answered outside its documented shape');
    }
    throw error;
  }
}
