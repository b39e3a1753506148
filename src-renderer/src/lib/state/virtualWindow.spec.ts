import { describe, expect, test } from 'vitest';
import { nearEnd, scrollToShow, windowOf } from './virtualWindow';

describe('virtual list windowing', () => {
  test('at the top: the visible rows plus the overscan below', () => {
    expect(windowOf(0, 500, 50, 100_000, 5)).toEqual({ start: 0, end: 15, offset: 0, total: 5_000_000 });
  });

  test('in the middle: overscan on both sides, offset at the first rendered row', () => {
    const w = windowOf(1_000_025, 500, 50, 100_000, 5);
    expect(w.start).toBe(20_000 - 5);
    expect(w.end).toBe(20_011 + 5);
    expect(w.offset).toBe(w.start * 50);
  });

  test('past the end (a shrunk list) clamps to the last screen', () => {
    const w = windowOf(10_000_000, 500, 50, 100, 2);
    expect(w.end).toBe(100);
    expect(w.start).toBe(90 - 2);
  });

  test('empty and fewer rows than a screen', () => {
    expect(windowOf(0, 500, 50, 0)).toEqual({ start: 0, end: 0, offset: 0, total: 0 });
    expect(windowOf(0, 500, 50, 3, 6)).toEqual({ start: 0, end: 3, offset: 0, total: 150 });
  });

  test('rendered rows never exceed a screen plus twice the overscan', () => {
    for (let top = 0; top < 50_000; top += 37) {
      const w = windowOf(top, 480, 52, 1000, 4);
      expect(w.end - w.start).toBeLessThanOrEqual(Math.ceil(480 / 52) + 1 + 8);
      expect(w.start * 52).toBeLessThanOrEqual(Math.min(top, 1000 * 52 - 480));
    }
  });

  test('scrollToShow moves only as far as needed', () => {
    expect(scrollToShow(10, 0, 200, 50)).toBe(350);
    expect(scrollToShow(2, 0, 200, 50)).toBe(0);
    expect(scrollToShow(1, 200, 200, 50)).toBe(50);
  });

  test('nearEnd asks for more within the margin of the loaded rows', () => {
    expect(nearEnd(windowOf(0, 500, 50, 200, 5), 200, 20)).toBe(false);
    expect(nearEnd(windowOf(9000, 500, 50, 200, 5), 200, 20)).toBe(true);
    expect(nearEnd(windowOf(0, 500, 50, 0), 0, 20)).toBe(false);
  });
});
