import { describe, expect, it } from 'vitest';
import { PushWindow } from './pushWindow';

describe('PushWindow', () => {
  it('starts at the configured maximum and refuses a window that could never send', () => {
    expect(new PushWindow(64).size).toBe(64);
    expect(() => new PushWindow(0)).toThrow(/>= 1/);
    expect(() => new PushWindow(2.5)).toThrow(/whole number/);
  });

  it('halves on an overload, never below one request', () => {
    const w = new PushWindow(64);
    for (const expected of [32, 16, 8, 4, 2, 1, 1]) {
      w.overloaded(w.epoch);
      expect(w.size).toBe(expected);
    }
  });

  it('halves once for a whole window refused at once: requests sent before the decrease do not count again', () => {
    const w = new PushWindow(32);
    const sentIn = w.epoch;
    for (let i = 0; i < 32; i++) w.overloaded(sentIn);
    expect(w.size).toBe(16);
    // A request sent after the decrease that is refused again halves it again.
    w.overloaded(w.epoch);
    expect(w.size).toBe(8);
  });

  it('widens by one per window of successes, up to the maximum and no further', () => {
    const w = new PushWindow(10);
    w.overloaded(w.epoch); // 5
    const sizes: number[] = [];
    for (let i = 0; i < 40; i++) {
      w.succeeded();
      sizes.push(w.size);
    }
    // 5 successes -> 6, 6 more -> 7, 7 more -> 8, 8 more -> 9, 9 more -> 10 (at 35), then it stays.
    expect(sizes[4]).toBe(6);
    expect(sizes[10]).toBe(7);
    expect(sizes[17]).toBe(8);
    expect(sizes[25]).toBe(9);
    expect(sizes[34]).toBe(10);
    expect(sizes[39]).toBe(10);
  });

  it('an overload while widening starts the count again from the halved size', () => {
    const w = new PushWindow(8);
    w.overloaded(w.epoch); // 4
    for (let i = 0; i < 3; i++) w.succeeded(); // 3 of the 4 needed
    w.overloaded(w.epoch); // 2, credit reset
    w.succeeded();
    expect(w.size).toBe(2);
    w.succeeded();
    expect(w.size).toBe(3);
  });
});
