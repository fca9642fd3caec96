import { afterEach, describe, expect, it } from 'vitest';
import { collectAfterLoad, LARGE_LOAD_RECORDS } from './load-garbage.ts';

const global = globalThis as { gc?: () => void };
const saved = global.gc;
afterEach(() => {
  if (saved === undefined) delete global.gc;
  else global.gc = saved;
});

const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('collectAfterLoad', () => {
  it('collects once, on the next turn, after a load of LARGE_LOAD_RECORDS records or more', async () => {
    let collections = 0;
    global.gc = () => void collections++;
    collectAfterLoad(LARGE_LOAD_RECORDS);
    expect(collections).toBe(0); // the caller still holds the loaded zones now
    await nextTurn();
    expect(collections).toBe(1);
  });

  it('leaves smaller loads to V8, and does nothing without --expose-gc', async () => {
    let collections = 0;
    global.gc = () => void collections++;
    collectAfterLoad(LARGE_LOAD_RECORDS - 1);
    delete global.gc;
    expect(() => collectAfterLoad(10 * LARGE_LOAD_RECORDS)).not.toThrow();
    await nextTurn();
    expect(collections).toBe(0);
  });
});
