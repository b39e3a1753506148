// formatTimestamp's arithmetic fast path agrees with Date-based formatting, byte for byte.
import { describe, expect, test } from 'vitest';
import { formatOptionalTimestamp, formatTimestamp, parseTimestamp } from './time';

/** The reference: Date's UTC fields, 0, 3 or 6 fractional digits (formatTimestamp before its fast path). */
function viaDate(micros: number): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const ms = Math.floor(micros / 1000);
  const subMs = micros - ms * 1000;
  const d = new Date(ms);
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const millis = d.getUTCMilliseconds();
  if (millis === 0 && subMs === 0) return `${base}Z`;
  if (subMs === 0) return `${base}.${pad(millis, 3)}Z`;
  return `${base}.${pad(millis, 3)}${pad(subMs, 3)}Z`;
}

describe('formatTimestamp', () => {
  test('known values', () => {
    expect(formatTimestamp(0)).toBe('1970-01-01T00:00:00Z');
    expect(formatTimestamp(1_000)).toBe('1970-01-01T00:00:00.001Z');
    expect(formatTimestamp(1)).toBe('1970-01-01T00:00:00.000001Z');
    expect(formatTimestamp(1_788_000_000_000_000)).toBe('2026-08-29T10:40:00Z');
    expect(formatTimestamp(951_782_400_123_000)).toBe('2000-02-29T00:00:00.123Z');
    expect(formatTimestamp(951_868_799_999_999)).toBe('2000-02-29T23:59:59.999999Z');
    expect(formatTimestamp(-1)).toBe('1969-12-31T23:59:59.999999Z');
    expect(formatTimestamp(-62_135_596_800_000_000)).toBe('0001-01-01T00:00:00Z');
    expect(formatTimestamp(253_402_300_799_999_999)).toBe(viaDate(253_402_300_799_999_999));
    expect(formatOptionalTimestamp(null)).toBeNull();
    expect(formatOptionalTimestamp(undefined)).toBeNull();
  });

  test('agrees with Date-based formatting across the protobuf range and beyond', () => {
    const samples: number[] = [
      0, 999, 1000, 999_999, 1_000_000, 86_399_999_999, 86_400_000_000, -1, -1000, -86_400_000_001, 253_402_300_799_999_000,
      253_402_300_800_000_000, 253_402_300_800_000_001, 9_007_199_254_740_991, 9_007_199_254_740_993, -62_135_596_800_000_000,
      -62_135_596_800_000_001, -62_200_000_000_000_000, 1.5, 1_700_000_000_000_000.5, -0,
    ];
    // Every day boundary and leap rule: 28 Feb / 29 Feb / 1 Mar around 1970, 2000 (leap), 2100 (not), 2400 (leap), 9999.
    for (const year of [1970, 1971, 1972, 1999, 2000, 2001, 2024, 2100, 2101, 2399, 2400, 9998, 9999]) {
      for (const [month, day] of [
        [1, 1],
        [2, 28],
        [2, 29],
        [3, 1],
        [12, 31],
      ]) {
        const ms = Date.UTC(year, month - 1, day);
        for (const delta of [0, 1, 999, 1000, 59_999, 3_599_999, 86_399_999])
          samples.push((ms + delta) * 1000, (ms + delta) * 1000 + 7, (ms - 1) * 1000 + 999);
      }
    }
    let seed = 20260901;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 20_000; i++) {
      samples.push(Math.floor(rand() * 4e15)); // 1970..2096, every fraction
      samples.push(Math.floor(rand() * 4e12) * 1000); // whole milliseconds
      samples.push(Math.floor(rand() * 4e9) * 1_000_000); // whole seconds
      samples.push(Math.floor(rand() * 253_402_300_800) * 1_000_000 + Math.floor(rand() * 1000)); // up to 9999, micros imprecise above 2^53
      samples.push(-Math.floor(rand() * 62_135_596_800_000_000)); // before 1970
    }
    for (const micros of samples) expect(formatTimestamp(micros), String(micros)).toBe(viaDate(micros));
  });

  test('round-trips through parseTimestamp', () => {
    for (const micros of [0, 1, 1_000, 1_788_000_000_123_456, -1, 951_782_400_123_000])
      expect(parseTimestamp(formatTimestamp(micros))).toBe(micros);
  });
});
