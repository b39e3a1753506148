import { describe, expect, test } from 'vitest';
import {
  counted,
  enumLabel,
  formatBytes,
  formatDuration,
  formatRelative,
  formatShortTime,
  formatTime,
  percentOf,
  shortUser,
} from './format';

describe('format', () => {
  test('enumLabel', () => {
    expect(enumLabel('ANNOTATION_STATE_FLAGGED', 'ANNOTATION_STATE_')).toBe('Flagged');
    expect(enumLabel('ANNOTATION_TYPE_DATA_REVIEW', 'ANNOTATION_TYPE_')).toBe('Data review');
    expect(enumLabel('ANNOTATION_STATE_UNSPECIFIED', 'ANNOTATION_STATE_')).toBe('—');
    expect(enumLabel(undefined, 'X_')).toBe('—');
  });

  test('formatTime is UTC, with milliseconds only when present', () => {
    expect(formatTime('2026-09-01T14:03:07Z')).toBe('2026-09-01 14:03:07 UTC');
    expect(formatTime('2026-09-01T14:03:07.250Z')).toBe('2026-09-01 14:03:07.250 UTC');
    expect(formatTime('2026-09-01T16:03:07+02:00')).toBe('2026-09-01 14:03:07 UTC');
    expect(formatTime(null)).toBe('—');
    expect(formatTime('garbage')).toBe('garbage');
  });

  test('formatShortTime', () => {
    expect(formatShortTime('2026-09-01T04:05:00Z')).toBe('Sep 1, 04:05');
  });

  test('formatDuration', () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();
    expect(formatDuration(at(0), at(0.85))).toBe('850 ms');
    expect(formatDuration(at(0), at(12.5))).toBe('12.5 s');
    expect(formatDuration(at(0), at(30))).toBe('30 s');
    expect(formatDuration(at(0), at(200))).toBe('3 min 20 s');
    expect(formatDuration(at(0), at(180))).toBe('3 min');
    expect(formatDuration(at(0), at(7500))).toBe('2 h 5 min');
    expect(formatDuration(at(10), at(0))).toBe('—');
  });

  test('formatRelative', () => {
    const now = new Date('2026-09-02T12:00:00Z');
    expect(formatRelative('2026-09-02T11:59:50Z', now)).toBe('just now');
    expect(formatRelative('2026-09-02T11:55:00Z', now)).toBe('5 min ago');
    expect(formatRelative('2026-09-02T09:00:00Z', now)).toBe('3 h ago');
    expect(formatRelative('2026-08-30T12:00:00Z', now)).toBe('3 d ago');
    expect(formatRelative('2026-01-01T12:00:00Z', now)).toBe('Jan 1, 12:00');
  });

  test('shortUser', () => {
    expect(shortUser('ana.ruiz@outpost.local')).toBe('ana.ruiz');
    expect(shortUser('plain')).toBe('plain');
    expect(shortUser(undefined)).toBe('');
  });

  test('formatBytes: decimal units, one decimal above a kilobyte', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1000)).toBe('1.0 kB');
    expect(formatBytes(5_312_000)).toBe('5.3 MB');
    expect(formatBytes(2_000_000_000)).toBe('2.0 GB');
  });

  test('percentOf: whole percent, never 100 before the end, 0 for an unknown total', () => {
    expect(percentOf(0, 10)).toBe(0);
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(9_999, 10_000)).toBe(99);
    expect(percentOf(10_000, 10_000)).toBe(100);
    expect(percentOf(5, 0)).toBe(0);
  });
});

describe('counted', () => {
  test('singular and plural of the API words', () => {
    expect(counted(1, 'policies')).toBe('1 policy');
    expect(counted(1, 'statuses')).toBe('1 status');
    expect(counted(1, 'users')).toBe('1 user');
    expect(counted(1, 'lines')).toBe('1 line');
    expect(counted(0, 'lines')).toBe('0 lines');
    expect(counted(2, 'policies')).toBe('2 policies');
    expect(counted(1, 'saved searches')).toBe('1 saved search');
    expect(counted(1, 'annotation logs')).toBe('1 annotation log');
    expect(counted(3218, 'results')).toBe('3,218 results');
  });
});
