/**
 * Test helper: zone changes reach the DNS server a moment after they commit (through the bus on
 * Redis), so a check of what DNS answers is retried until it holds or `timeoutMs` passes.
 *
 * The check fails while it throws (an assertion) or returns `false` (a condition); any other
 * value, undefined included, holds and is handed back. When the time is up, the last error is
 * thrown, or one saying the check was still false.
 */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5_000): Promise<Exclude<T, false>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Boxed: a check may throw anything, undefined too.
    let thrown: { error: unknown } | null = null;
    try {
      const value = await check();
      if (value !== false) return value as Exclude<T, false>;
    } catch (error) {
      thrown = { error };
    }
    if (Date.now() >= deadline) {
      throw thrown === null ? new Error(`the check was still false after ${timeoutMs} ms`) : thrown.error;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
