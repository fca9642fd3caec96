/**
 * A full load of a large zone set (a cold start, a reload after an outage) leaves its scratch —
 * the parsed records, the build's indexes — as garbage that V8 keeps resident until allocation
 * asks for a collection, and a DNS node idle after its load allocates almost nothing: at a
 * million records it stayed at about 670 MiB where about 460 are live. A process started with
 * `--expose-gc` (`npm start`, the image) collects once right after such a load instead: one full
 * collection, about 0.25 s at a million records, while the node has just started.
 */

/** Records below which a load's garbage is left to V8's own schedule. */
export const LARGE_LOAD_RECORDS = 200_000;

/** After a full load of `records` records: collect its garbage once the caller has let it go. */
export function collectAfterLoad(records: number): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined || records < LARGE_LOAD_RECORDS) return;
  // Next turn: the loaded zones' records are still referenced by the caller's frames now.
  setImmediate(() => gc());
}
