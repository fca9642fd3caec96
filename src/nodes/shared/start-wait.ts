/**
 * How long a start waits for the database before it serves the snapshot file instead (the read
 * goes on in the background). A database that does not answer (a lost host, a full backlog) makes
 * every connection attempt last its timeout: a node must not be that late to answer.
 */
export const START_DATABASE_WAIT_MS = 500;

/** `promise`'s outcome, or 'late' when it has not settled within `ms`. */
export async function settledWithin<T>(
  promise: Promise<T>,
  ms: number,
): Promise<{ readonly value: T } | { readonly error: unknown } | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
