/**
 * Test helper: zone changes reach the DNS server a moment after they commit (through the bus on
 * Redis), so an assertion about what DNS answers is retried until it holds or `timeoutMs` passes.
 */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
