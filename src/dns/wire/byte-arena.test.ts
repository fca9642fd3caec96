import { describe, expect, it } from 'vitest';
import { ByteArena } from './byte-arena.ts';

describe('ByteArena', () => {
  it('hands out non-overlapping ranges, a chunk of its own for a large one', () => {
    const arena = new ByteArena();
    const first = arena.reserve(10);
    const chunk = arena.chunk;
    expect(arena.reserve(20)).toBe(first + 10);
    expect(arena.chunk).toBe(chunk);
    arena.reserve(5_000_000);
    expect(arena.chunk).not.toBe(chunk);
    expect(arena.chunk.length).toBeGreaterThanOrEqual(5_000_000);
    expect(arena.reserve(1)).toBe(0);
  });
});
