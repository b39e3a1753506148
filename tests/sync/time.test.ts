// The pull path's fast timestamp reader agrees with the full RFC 3339 parser.
import { describe, expect, test } from 'vitest';
import { formatTimestamp, parseTimestamp } from '../../src-shared/api/time';
import { wireMicros } from '../../src-main/sync/time';

describe('wireMicros', () => {
  test('matches parseTimestamp on canonical and other forms', () => {
    const samples = [
      '2026-09-01T00:00:00Z',
      '2026-09-01T12:34:56.789Z',
      '2026-09-01T12:34:56.789123Z',
      '2026-09-01T12:34:56.789123456Z',
      '2026-09-01T12:34:56.7Z',
      '1969-12-31T23:59:59.5Z',
      '0001-01-01T00:00:00Z',
      '2026-02-30T00:00:00Z',
      '2026-09-01T12:34:56+02:00',
      '2026-09-01t12:34:56z',
      'nonsense',
      '2026-09-01T24:00:00Z',
    ];
    for (const s of samples) expect(wireMicros(s)).toBe(parseTimestamp(s));
    for (let i = 0; i < 2000; i++) {
      const micros = Math.floor(Math.random() * 4e15);
      const text = formatTimestamp(micros);
      expect(wireMicros(text)).toBe(micros);
    }
    expect(wireMicros('')).toBeNull();
    expect(wireMicros(null)).toBeNull();
  });
});
