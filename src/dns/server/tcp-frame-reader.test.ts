import { describe, expect, it } from 'vitest';
import { createTcpFrameReader } from './tcp-frame-reader.ts';

function frame(len: number, fill: number): Buffer {
  const b = Buffer.alloc(len + 2, fill);
  b.writeUInt16BE(len, 0);
  return b;
}

describe('TCP frame reader', () => {
  const stream = Buffer.concat([frame(12, 1), frame(300, 2), frame(65535, 3), frame(20, 4)]);
  const expected = [
    [12, 1],
    [300, 2],
    [65535, 3],
    [20, 4],
  ];
  it.each([1, 2, 3, 7, 1000, stream.length])('reassembles messages from chunks of %i bytes', (size) => {
    const got: number[][] = [];
    const r = createTcpFrameReader((buf, off, len) => {
      const m = buf.subarray(off, off + len);
      got.push([m.length, m[0]!]);
      if (!m.every((x) => x === m[0])) throw new Error('corrupted message');
      return true;
    });
    let ok = true;
    for (let i = 0; i < stream.length; i += size) ok &&= r.push(stream.subarray(i, i + size));
    expect(ok).toBe(true);
    expect(got).toEqual(expected);
  });
  it('rejects lengths below a DNS header, also when the prefix is split', () => {
    expect(createTcpFrameReader(() => true).push(Buffer.from([0, 0]))).toBe(false);
    const r = createTcpFrameReader(() => true);
    expect(r.push(Buffer.from([0]))).toBe(true);
    expect(r.push(Buffer.from([11]))).toBe(false);
  });
  it('stops when the consumer says so', () => {
    let n = 0;
    const r = createTcpFrameReader(() => ++n < 2);
    expect(r.push(Buffer.concat([frame(12, 1), frame(12, 1), frame(12, 1)]))).toBe(false);
    expect(n).toBe(2);
  });
});
