import { describe, expect, test } from 'vitest';
import { BATCH_UPDATE_LIMIT } from '../../../../src-shared/api/annotations';
import { annotationFactory } from '../testing/factories';
import { fakeClient } from '../testing/fakeClient';
import { DEFAULT_SORT } from './annotationService';
import { applyBatch, changeOf, changedSubject, undoBatch, withChange, type AnnotationChange } from './batchService';

/** Answers every record as changed, its previous value the opposite archive. */
const echoing = () =>
  fakeClient().on('BatchChangeAnnotations', (r) => ({
    changed: ((r.records ?? []) as { annotationId: string }[]).map((x) => ({
      annotationId: x.annotationId,
      previous: { archived: false },
    })),
  }));

describe('batchService', () => {
  test('loaded rows go as records, BATCH_UPDATE_LIMIT to a call; what changed comes back with the change made', async () => {
    const fake = echoing();
    const rows = annotationFactory.buildList(BATCH_UPDATE_LIMIT + 2);
    const applied = await applyBatch(fake.client, { kind: 'archive', archived: true }, { kind: 'rows', annotations: rows });
    const calls = fake.callsTo('BatchChangeAnnotations') as { records: unknown[] }[];
    expect(calls.map((c) => c.records.length)).toEqual([BATCH_UPDATE_LIMIT, 2]);
    expect(applied[0]).toEqual({ annotationId: rows[0].annotationId, made: { archived: true }, previous: { archived: false } });
    expect(applied).toHaveLength(rows.length);
  });

  test('every matching goes as the list’s filter, Archived chip included; the undo as records of the previous values', async () => {
    const fake = fakeClient().on('BatchChangeAnnotations', (r) =>
      r.filter ? { changed: [{ annotationId: 'x', previous: { removeTag: 'done' } }] } : { changed: [] },
    );
    const query = { filter: 'a || b', sort: DEFAULT_SORT };
    const applied = await applyBatch(fake.client, { kind: 'add-tag', tag: 'done' }, { kind: 'matching', query, count: 1 });
    await applyBatch(
      fake.client,
      { kind: 'add-tag', tag: 'done' },
      { kind: 'matching', query: { ...query, showArchived: true }, count: 1 },
    );
    await undoBatch(fake.client, applied);
    expect(fake.callsTo('BatchChangeAnnotations')).toEqual([
      { filter: '(a || b) && is_archived == false', change: { addTag: 'done' } },
      { filter: 'a || b', change: { addTag: 'done' } },
      { records: [{ annotationId: 'x', change: { removeTag: 'done' } }] },
    ]);
  });

  test('withChange paints what the engine changed; changeOf and changedSubject', () => {
    const a = annotationFactory.build({ name: 'Dip', tags: ['a'], assignedToUserId: '', isArchived: false });
    const cases: [AnnotationChange, Partial<typeof a>][] = [
      [{ state: 'ANNOTATION_STATE_RESOLVED' }, { state: 'ANNOTATION_STATE_RESOLVED' }],
      [{ assignedToUserId: 'u1' }, { assignedToUserId: 'u1' }],
      [{ addTag: 'b' }, { tags: ['a', 'b'] }],
      [{ addTag: 'a' }, { tags: ['a'] }],
      [{ removeTag: 'a' }, { tags: [] }],
      [{ archived: true }, { isArchived: true }],
    ];
    for (const [change, expected] of cases) expect(withChange(a, change)).toEqual({ ...a, ...expected });
    expect(changeOf({ kind: 'remove-tag', tag: 't' })).toEqual({ removeTag: 't' });
    const one = [{ annotationId: a.annotationId, made: {}, previous: {} }];
    expect(changedSubject({ kind: 'rows', annotations: [a] }, one)).toBe("'Dip'");
    expect(changedSubject({ kind: 'matching', query: { filter: '', sort: DEFAULT_SORT }, count: 5 }, one)).toBe('1 annotation');
  });
});
