import { describe, expect, it } from 'vitest';
import { eventually } from './eventually.ts';

describe('eventually', () => {
  it('retries while the check throws', async () => {
    let calls = 0;
    await eventually(async () => {
      calls++;
      expect(calls).toBe(3);
    });
    expect(calls).toBe(3);
  });

  it('retries while the check returns false', async () => {
    let calls = 0;
    expect(await eventually(async () => ++calls === 3)).toBe(true);
    expect(calls).toBe(3);
  });

  it('fails with the last error when the time is up', async () => {
    let calls = 0;
    const failure = await eventually(async () => {
      calls++;
      throw new Error(`attempt ${calls}`);
    }, 250).catch((error: unknown) => error);
    expect(calls).toBeGreaterThan(1);
    expect(failure).toEqual(new Error(`attempt ${calls}`));
  });

  it('fails when the check stays false', async () => {
    await expect(eventually(async () => false, 250)).rejects.toThrow(
      'the check was still false after 250 ms',
    );
  });

  it('hands back what the check returns, undefined, 0 and null too', async () => {
    let calls = 0;
    const found = await eventually(async () => {
      calls++;
      if (calls < 2) throw new Error('not yet');
      return { answer: 42 };
    });
    expect(found).toEqual({ answer: 42 });
    expect(await eventually(async () => undefined)).toBeUndefined();
    expect(await eventually(async () => 0)).toBe(0);
    expect(await eventually(async () => null)).toBeNull();
  });
});
