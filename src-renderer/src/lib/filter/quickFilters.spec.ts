import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { readQuickFilters, topLevelClauses, writeQuickFilters, type QuickFilters } from './quickFilters';

describe('quick filters <-> CEL', () => {
  test('each chip writes its clause', () => {
    const cel = writeQuickFilters({
      states: ['ANNOTATION_STATE_FLAGGED'],
      assignee: 'me@x',
      asset: 'Bench "B"',
      tag: 'needs-review',
      from: '2026-11-01T00:00:00Z',
    });
    expect(cel).toBe(
      'state == ANNOTATION_STATE_FLAGGED && assignee == "me@x" && asset_name == "Bench \\"B\\"" && tag_name == "needs-review" && start_time >= timestamp("2026-11-01T00:00:00Z")',
    );
    expect(writeQuickFilters({ states: ['ANNOTATION_STATE_OPEN', 'ANNOTATION_STATE_RESOLVED'] })).toBe(
      'state in [ANNOTATION_STATE_OPEN, ANNOTATION_STATE_RESOLVED]',
    );
  });

  test('a typed filter keeps what no chip owns', () => {
    const { quick, rest } = readQuickFilters('name.contains("a && b") && state == ANNOTATION_STATE_OPEN && metadata["x"] == 1');
    expect(quick).toEqual({ states: ['ANNOTATION_STATE_OPEN'] });
    expect(rest).toBe('name.contains("a && b") && metadata["x"] == 1');
  });

  test('a top-level || is never split (its chips would change its meaning)', () => {
    expect(topLevelClauses('a == 1 || state == ANNOTATION_STATE_OPEN && b')).toBeUndefined();
    expect(readQuickFilters('a == 1 || state == ANNOTATION_STATE_OPEN')).toEqual({
      quick: { states: [] },
      rest: 'a == 1 || state == ANNOTATION_STATE_OPEN',
    });
    // Written with chips, such a rest is wrapped.
    expect(writeQuickFilters({ states: ['ANNOTATION_STATE_OPEN'] }, 'a == 1 || b == 2')).toBe(
      '(a == 1 || b == 2) && state == ANNOTATION_STATE_OPEN',
    );
    expect(topLevelClauses('(a || b) && c')).toEqual(['(a || b)', 'c']);
  });

  test('round trip: reading what the chips wrote gives the chips and the rest back', () => {
    const text = fc.string({ maxLength: 12 });
    const quick = fc.record(
      {
        states: fc.subarray(['ANNOTATION_STATE_OPEN', 'ANNOTATION_STATE_FLAGGED', 'ANNOTATION_STATE_RESOLVED'] as const),
        assignee: text,
        asset: text,
        tag: text,
        from: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        to: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      },
      { requiredKeys: ['states'] },
    );
    const rest = fc.constantFrom(
      '',
      'name.contains("x")',
      'a == 1 || b == 2',
      'metadata["k"] == "v" && !is_archived',
      '(state == ANNOTATION_STATE_OPEN || x)',
    );
    fc.assert(
      fc.property(quick, rest, (q, r) => {
        const back = readQuickFilters(writeQuickFilters(q as QuickFilters, r));
        expect(back.quick).toEqual(q);
        const expectedRest = r && !topLevelClauses(r) ? `(${r})` : r;
        expect(back.rest).toBe(expectedRest);
      }),
    );
  });
});
