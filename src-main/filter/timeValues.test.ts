import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ceilDiv, floorDiv, MAX_TIMESTAMP_NS, MIN_TIMESTAMP_NS, parseDuration, parseTimestamp } from './timeValues';

describe('parseTimestamp (RFC 3339, nanosecond exact)', () => {
  it.each([
    ['1970-01-01T00:00:00Z', 0n],
    ['2009-02-13T23:31:30Z', 1_234_567_890_000_000_000n],
    ['2024-01-01T00:00:00.000001Z', 1_704_067_200_000_001_000n],
    ['2024-01-01T00:00:00.0000005Z', 1_704_067_200_000_000_500n],
    ['2024-01-01T00:00:00.123456789Z', 1_704_067_200_123_456_789n],
    ['2024-01-01T10:00:00+10:00', 1_704_067_200_000_000_000n],
    ['2023-12-31T19:30:00-04:30', 1_704_067_200_000_000_000n],
    ['2024-02-29T00:00:00Z', 1_709_164_800_000_000_000n],
    ['0001-01-01T00:00:00Z', MIN_TIMESTAMP_NS],
    ['9999-12-31T23:59:59.999999999Z', MAX_TIMESTAMP_NS],
  ])('%s', (text, ns) => expect(parseTimestamp(text)).toBe(ns));

  it.each([
    '2024-01-01',
    '2024-01-01T00:00:00',
    '2024-13-01T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T00:60:00Z',
    '2024-01-01T00:00:60Z',
    '2024-01-01T00:00:00.1234567890Z',
    '2024-01-01 00:00:00Z',
    '0000-12-31T23:59:59Z',
    '10000-01-01T00:00:00Z',
    '0001-01-01T00:00:00+00:01',
    '2024-01-01T00:00:00+24:00',
    ' 2024-01-01T00:00:00Z',
  ])('rejects %j', (text) => expect(parseTimestamp(text)).toBeUndefined());

  it('agrees with Date.parse on millisecond timestamps (property)', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), (d) => {
        expect(parseTimestamp(d.toISOString())).toBe(BigInt(d.getTime()) * 1_000_000n);
      }),
    );
  });
});

describe('parseDuration (Go syntax, CEL range)', () => {
  it.each([
    ['0', 0n],
    ['0s', 0n],
    ['1s', 1_000_000_000n],
    ['-1.5h', -5_400_000_000_000n],
    ['+90m', 5_400_000_000_000n],
    ['2h45m', 9_900_000_000_000n],
    ['1ns', 1n],
    ['1us', 1000n],
    ['1µs', 1000n],
    ['1μs', 1000n],
    ['1.5ms', 1_500_000n],
    ['.5s', 500_000_000n],
    ['1.s', 1_000_000_000n],
    ['0.0000000019s', 1n],
    ['315576000000s', 315_576_000_000_000_000_000n],
  ])('%s', (text, ns) => expect(parseDuration(text)).toBe(ns));

  it.each(['', '1', 's', '1x', '1 s', '--1s', '.s', '1s2', '315576000001s', '-320000000000s', '1e3s'])('rejects %j', (text) =>
    expect(parseDuration(text)).toBeUndefined(),
  );
});

describe('floorDiv / ceilDiv', () => {
  it('round toward -infinity / +infinity (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.bigInt({ min: 1n, max: 5000n }), (a, b) => {
        const f = floorDiv(a, b);
        const c = ceilDiv(a, b);
        expect(f * b <= a && a < (f + 1n) * b).toBe(true);
        expect((c - 1n) * b < a && a <= c * b).toBe(true);
      }),
    );
  });
});
