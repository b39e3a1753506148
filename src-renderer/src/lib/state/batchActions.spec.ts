import { afterEach, describe, expect, test, vi } from 'vitest';
import { ApiError, Code } from '../../../../src-shared/errors';
import { annotationFactory } from '../testing/factories';
import { deferred, fakeClient } from '../testing/fakeClient';
import { DEFAULT_SORT, type Annotation, type ReviewState } from '../services/annotationService';
import { withChange, type AnnotationChange, type BatchTarget } from '../services/batchService';
import { BatchActions, PROGRESS_AFTER_MS, UNDO_MS } from './batchActions.svelte';

afterEach(() => vi.useRealTimers());

/** A fake engine holding annotations: BatchChangeAnnotations (by records, or by a `name == "…"` filter) changes them. */
function engine(rows: Annotation[]) {
  const byId = new Map(rows.map((a) => [a.annotationId, a]));
  const apply = (id: string, change: AnnotationChange): AnnotationChange | undefined => {
    const a = byId.get(id)!;
    const next = withChange(a, change);
    if (JSON.stringify(next) === JSON.stringify(a)) return undefined;
    byId.set(id, next);
    if (change.state !== undefined) return { state: a.state as ReviewState };
    if (change.assignedToUserId !== undefined) return { assignedToUserId: a.assignedToUserId };
    if (change.addTag !== undefined) return { removeTag: change.addTag };
    if (change.removeTag !== undefined) return { addTag: change.removeTag };
    return { archived: a.isArchived };
  };
  const fake = fakeClient().on('BatchChangeAnnotations', (r) => {
    const records = r.records
      ? (r.records as { annotationId: string; change: AnnotationChange }[])
      : [...byId.values()]
          .filter((a) => String(r.filter).includes(`name == "${a.name}"`))
          .map((a) => ({ annotationId: a.annotationId, change: r.change as AnnotationChange }));
    return {
      changed: records.flatMap(({ annotationId, change }) => {
        const previous = apply(annotationId, change);
        return previous ? [{ annotationId, previous }] : [];
      }),
    };
  });
  return { fake, byId };
}

const rowsOf = (annotations: readonly Annotation[]): BatchTarget => ({ kind: 'rows', annotations });

describe('BatchActions', () => {
  test('archive is one engine call on the rows; the undo restores exactly those it changed, once', async () => {
    const rows = [annotationFactory.build(), annotationFactory.build(), annotationFactory.build({ isArchived: true })];
    const { fake, byId } = engine(rows);
    const seen: string[][] = [];
    const batch = new BatchActions(fake.client, (applied) => seen.push(applied.map((a) => a.annotationId)));
    const applied = await batch.run({ kind: 'archive', archived: true }, rowsOf(rows));
    expect(fake.callsTo('BatchChangeAnnotations')).toEqual([
      { records: rows.map((a) => ({ annotationId: a.annotationId, change: { archived: true } })) },
    ]);
    // The already archived one was left alone (and so is not unarchived by the undo).
    expect(applied && applied.length).toBe(2);
    expect(batch.message).toBe('Archived 2 annotations');
    expect(batch.canUndo).toBe(true);
    expect(seen).toEqual([[rows[0].annotationId, rows[1].annotationId]]);

    expect(await batch.undo()).toBe(true);
    expect(fake.callsTo('BatchChangeAnnotations')[1]).toEqual({
      records: [rows[0], rows[1]].map((a) => ({ annotationId: a.annotationId, change: { archived: false } })),
    });
    expect([...byId.values()].map((a) => a.isArchived)).toEqual([false, false, true]);
    expect(batch.canUndo).toBe(false);
    expect(await batch.undo()).toBe(false);
  });

  test('every matching: one call with the list’s filter (archived hidden as the list hides them); the undo names the records', async () => {
    const rows = [
      annotationFactory.build({ name: 'dip', state: 'ANNOTATION_STATE_OPEN' }),
      annotationFactory.build({ name: 'dip', state: 'ANNOTATION_STATE_RESOLVED' }),
      annotationFactory.build({ name: 'spike', state: 'ANNOTATION_STATE_OPEN' }),
    ];
    const { fake, byId } = engine(rows);
    const batch = new BatchActions(fake.client, () => {});
    const query = { filter: 'name == "dip"', sort: DEFAULT_SORT };
    await batch.run({ kind: 'state', state: 'ANNOTATION_STATE_FLAGGED' }, { kind: 'matching', query, count: 2 });
    expect(fake.callsTo('BatchChangeAnnotations')).toEqual([
      { filter: 'name == "dip" && is_archived == false', change: { state: 'ANNOTATION_STATE_FLAGGED' } },
    ]);
    expect(batch.message).toBe('Set 2 annotations to flagged');
    expect([...byId.values()].map((a) => a.state)).toEqual([
      'ANNOTATION_STATE_FLAGGED',
      'ANNOTATION_STATE_FLAGGED',
      'ANNOTATION_STATE_OPEN',
    ]);
    await batch.undo();
    expect(fake.callsTo('BatchChangeAnnotations')[1]).toEqual({
      records: [
        { annotationId: rows[0].annotationId, change: { state: 'ANNOTATION_STATE_OPEN' } },
        { annotationId: rows[1].annotationId, change: { state: 'ANNOTATION_STATE_RESOLVED' } },
      ],
    });
    expect([...byId.values()].map((a) => a.state)).toEqual(rows.map((a) => a.state));
  });

  test('add a tag keeps the other tags; undo removes only that tag; assign undo restores each assignee', async () => {
    const rows = [annotationFactory.build({ tags: ['a'] }), annotationFactory.build({ tags: ['x', 'b'], assignedToUserId: 'u1' })];
    const { fake, byId } = engine(rows);
    const batch = new BatchActions(fake.client, () => {});
    await batch.run({ kind: 'add-tag', tag: 'x' }, rowsOf(rows));
    expect([...byId.values()].map((a) => a.tags)).toEqual([
      ['a', 'x'],
      ['x', 'b'],
    ]);
    await batch.undo();
    expect([...byId.values()].map((a) => a.tags)).toEqual([['a'], ['x', 'b']]);

    await batch.run({ kind: 'assign', userId: 'u2' }, rowsOf([...byId.values()]));
    expect([...byId.values()].map((a) => a.assignedToUserId)).toEqual(['u2', 'u2']);
    await batch.undo();
    expect([...byId.values()].map((a) => a.assignedToUserId)).toEqual(['', 'u1']);
  });

  test('nothing to change says so and offers no undo', async () => {
    const rows = [annotationFactory.build({ isArchived: true })];
    const { fake } = engine(rows);
    const batch = new BatchActions(fake.client, () => {});
    expect(await batch.run({ kind: 'archive', archived: true }, rowsOf(rows))).toEqual([]);
    expect(batch.message).toBe('Nothing to change (1 already so)');
    expect(batch.canUndo).toBe(false);
  });

  test('the toast and its undo expire', async () => {
    vi.useFakeTimers();
    const rows = [annotationFactory.build()];
    const { fake } = engine(rows);
    const batch = new BatchActions(fake.client, () => {});
    await batch.run({ kind: 'archive', archived: true }, rowsOf(rows));
    expect(batch.canUndo).toBe(true);
    expect(batch.message).toBe('Archived 1 annotation');
    vi.advanceTimersByTime(UNDO_MS + 1);
    expect(batch.canUndo).toBe(false);
    expect(batch.message).toBe('');
  });

  test('the toast stays while the pointer or focus is on it, and goes UNDO_MS after they leave; an error stays', async () => {
    vi.useFakeTimers();
    const rows = [annotationFactory.build()];
    const { fake } = engine(rows);
    const batch = new BatchActions(fake.client, () => {});
    await batch.run({ kind: 'archive', archived: true }, rowsOf(rows));
    vi.advanceTimersByTime(UNDO_MS - 100);
    batch.hold();
    vi.advanceTimersByTime(UNDO_MS * 3);
    expect(batch.message).toBe('Archived 1 annotation');
    expect(batch.canUndo).toBe(true);
    batch.release();
    vi.advanceTimersByTime(UNDO_MS - 1);
    expect(batch.canUndo).toBe(true);
    vi.advanceTimersByTime(2);
    expect(batch.message).toBe('');
    expect(batch.canUndo).toBe(false);

    const refusing = fakeClient().on('BatchChangeAnnotations', () => {
      throw new ApiError(Code.PERMISSION_DENIED, 'denied');
    });
    const refused = new BatchActions(refusing.client, () => {});
    await refused.run({ kind: 'archive', archived: true }, rowsOf(rows));
    vi.advanceTimersByTime(UNDO_MS * 10);
    expect(refused.error?.message).toBe('denied');
    refused.dismiss();
    expect(refused.error).toBeUndefined();
  });

  test('a refused batch keeps the API error and changes nothing to undo', async () => {
    const fake = fakeClient().on('BatchChangeAnnotations', () => {
      throw new ApiError(Code.NOT_FOUND, 'annotation not found');
    });
    const batch = new BatchActions(fake.client, () => {});
    expect(await batch.run({ kind: 'archive', archived: true }, rowsOf([annotationFactory.build({ name: 'Chamber pressure dip' })]))).toBe(
      false,
    );
    expect(batch.error?.message).toContain('annotation not found');
    expect(batch.error?.doing).toEqual({ verb: 'archiving', subject: "'Chamber pressure dip'" });
    expect(batch.canUndo).toBe(false);
  });

  test('a batch that takes longer than PROGRESS_AFTER_MS says what is running until it ends', async () => {
    vi.useFakeTimers();
    const rows = annotationFactory.buildList(3);
    const answer = deferred<{ changed: { annotationId: string; previous: AnnotationChange }[] }>();
    const fake = fakeClient().on('BatchChangeAnnotations', () => answer.promise);
    const batch = new BatchActions(fake.client, () => {});
    const running = batch.run({ kind: 'archive', archived: true }, rowsOf(rows));
    vi.advanceTimersByTime(PROGRESS_AFTER_MS - 1);
    expect(batch.progress).toBe('');
    vi.advanceTimersByTime(2);
    expect(batch.progress).toBe('Archiving 3 annotations…');
    answer.resolve({ changed: rows.map((a) => ({ annotationId: a.annotationId, previous: { archived: false } })) });
    await running;
    expect(batch.progress).toBe('');
    expect(batch.message).toBe('Archived 3 annotations');
  });
});
