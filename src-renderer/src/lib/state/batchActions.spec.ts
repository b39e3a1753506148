import { afterEach, describe, expect, test, vi } from 'vitest';
import { ApiError, Code } from '../../../../src-shared/errors';
import { annotationFactory } from '../testing/factories';
import { deferred, fakeClient } from '../testing/fakeClient';
import type { Annotation } from '../services/annotationService';
import { BatchActions, PROGRESS_AFTER_MS, UNDO_MS } from './batchActions.svelte';

afterEach(() => vi.useRealTimers());

/** A fake engine holding annotations: batch archive/unarchive, UpdateAnnotation and BatchUpdateAnnotations change them. */
function engine(rows: Annotation[]) {
  const byId = new Map(rows.map((a) => [a.annotationId, a]));
  const update = (r: Record<string, unknown>) => {
    const patch = r.annotation as Partial<Annotation> & { annotationId: string };
    const mask = String(r.updateMask);
    const current = byId.get(patch.annotationId)!;
    const next = {
      ...current,
      ...(mask === 'state' ? { state: patch.state } : {}),
      ...(mask === 'assigned_to_user_id' ? { assignedToUserId: patch.assignedToUserId! } : {}),
      ...(mask === 'tags' ? { tags: patch.tags! } : {}),
    } as Annotation;
    byId.set(patch.annotationId, next);
    return next;
  };
  const fake = fakeClient()
    .on('BatchArchiveAnnotations', (r) => ({
      annotations: (r.annotationIds as string[]).map((id) => (byId.set(id, { ...byId.get(id)!, isArchived: true }), byId.get(id)!)),
    }))
    .on('BatchUnarchiveAnnotations', (r) => ({
      annotations: (r.annotationIds as string[]).map((id) => (byId.set(id, { ...byId.get(id)!, isArchived: false }), byId.get(id)!)),
    }))
    .on('UpdateAnnotation', (r) => ({ annotation: update(r) }))
    .on('BatchUpdateAnnotations', (r) => ({
      responses: (r.requests as Array<Record<string, unknown>>).map((u) => ({ annotation: update(u) })),
    }));
  return { fake, byId };
}

describe('BatchActions', () => {
  test('archive goes as one batch request; undo is the inverse batch, once', async () => {
    const rows = [annotationFactory.build(), annotationFactory.build(), annotationFactory.build({ isArchived: true })];
    const { fake, byId } = engine(rows);
    const seen: string[] = [];
    const batch = new BatchActions(fake.client, (a) => seen.push(a.annotationId));
    const updated = await batch.run({ kind: 'archive', archived: true }, rows);
    // The already archived one is not sent (and so not unarchived by the undo).
    expect(fake.callsTo('BatchArchiveAnnotations')).toEqual([{ annotationIds: [rows[0].annotationId, rows[1].annotationId] }]);
    expect(updated && updated.length).toBe(2);
    expect(batch.message).toBe('Archived 2 annotations');
    expect(batch.canUndo).toBe(true);
    expect(seen).toEqual([rows[0].annotationId, rows[1].annotationId]);

    expect(await batch.undo()).toBe(true);
    expect(fake.callsTo('BatchUnarchiveAnnotations')).toEqual([{ annotationIds: [rows[0].annotationId, rows[1].annotationId] }]);
    expect([...byId.values()].map((a) => a.isArchived)).toEqual([false, false, true]);
    expect(batch.canUndo).toBe(false);
    expect(await batch.undo()).toBe(false);
  });

  test('set state: one batch call for all; undo restores each previous state in one call', async () => {
    const rows = [
      annotationFactory.build({ state: 'ANNOTATION_STATE_OPEN' }),
      annotationFactory.build({ state: 'ANNOTATION_STATE_RESOLVED' }),
      annotationFactory.build({ state: 'ANNOTATION_STATE_FLAGGED' }),
    ];
    const { fake, byId } = engine(rows);
    const batch = new BatchActions(fake.client, () => {});
    await batch.run({ kind: 'state', state: 'ANNOTATION_STATE_FLAGGED' }, rows);
    expect(fake.callsTo('UpdateAnnotation')).toHaveLength(0);
    expect(fake.callsTo('BatchUpdateAnnotations')).toEqual([
      {
        requests: [
          { annotation: { annotationId: rows[0].annotationId, state: 'ANNOTATION_STATE_FLAGGED' }, updateMask: 'state' },
          { annotation: { annotationId: rows[1].annotationId, state: 'ANNOTATION_STATE_FLAGGED' }, updateMask: 'state' },
        ],
      },
    ]);
    expect([...byId.values()].map((a) => a.state)).toEqual([
      'ANNOTATION_STATE_FLAGGED',
      'ANNOTATION_STATE_FLAGGED',
      'ANNOTATION_STATE_FLAGGED',
    ]);
    await batch.undo();
    expect(fake.callsTo('BatchUpdateAnnotations')).toHaveLength(2);
    expect([...byId.values()].map((a) => a.state)).toEqual([
      'ANNOTATION_STATE_OPEN',
      'ANNOTATION_STATE_RESOLVED',
      'ANNOTATION_STATE_FLAGGED',
    ]);
  });

  test('add a tag keeps the other tags; undo removes only that tag; assign undo restores each assignee', async () => {
    const rows = [annotationFactory.build({ tags: ['a'] }), annotationFactory.build({ tags: ['x', 'b'], assignedToUserId: 'u1' })];
    const { fake, byId } = engine(rows);
    const batch = new BatchActions(fake.client, () => {});
    await batch.run({ kind: 'add-tag', tag: 'x' }, rows);
    expect([...byId.values()].map((a) => a.tags)).toEqual([
      ['a', 'x'],
      ['x', 'b'],
    ]);
    await batch.undo();
    expect([...byId.values()].map((a) => a.tags)).toEqual([['a'], ['x', 'b']]);

    await batch.run({ kind: 'assign', userId: 'u2' }, [...byId.values()]);
    expect([...byId.values()].map((a) => a.assignedToUserId)).toEqual(['u2', 'u2']);
    await batch.undo();
    expect([...byId.values()].map((a) => a.assignedToUserId)).toEqual(['', 'u1']);
  });

  test('the toast and its undo expire', async () => {
    vi.useFakeTimers();
    const rows = [annotationFactory.build()];
    const { fake } = engine(rows);
    const batch = new BatchActions(fake.client, () => {});
    await batch.run({ kind: 'archive', archived: true }, rows);
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
    await batch.run({ kind: 'archive', archived: true }, rows);
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

    const refusing = fakeClient().on('BatchArchiveAnnotations', () => {
      throw new ApiError(Code.PERMISSION_DENIED, 'denied');
    });
    const refused = new BatchActions(refusing.client, () => {});
    await refused.run({ kind: 'archive', archived: true }, rows);
    vi.advanceTimersByTime(UNDO_MS * 10);
    expect(refused.error?.message).toBe('denied');
    refused.dismiss();
    expect(refused.error).toBeUndefined();
  });

  test('a refused batch keeps the API error and changes nothing to undo', async () => {
    const fake = fakeClient().on('BatchArchiveAnnotations', () => {
      throw new ApiError(Code.NOT_FOUND, 'annotation not found');
    });
    const batch = new BatchActions(fake.client, () => {});
    expect(await batch.run({ kind: 'archive', archived: true }, [annotationFactory.build({ name: 'Chamber pressure dip' })])).toBe(false);
    expect(batch.error?.message).toContain('annotation not found');
    expect(batch.error?.doing).toEqual({ verb: 'archiving', subject: "'Chamber pressure dip'" });
    expect(batch.canUndo).toBe(false);
  });

  test('a batch that takes longer than PROGRESS_AFTER_MS says what is running until it ends', async () => {
    vi.useFakeTimers();
    const rows = annotationFactory.buildList(3);
    const answer = deferred<{ annotations: Annotation[] }>();
    const fake = fakeClient().on('BatchArchiveAnnotations', () => answer.promise);
    const batch = new BatchActions(fake.client, () => {});
    const running = batch.run({ kind: 'archive', archived: true }, rows);
    vi.advanceTimersByTime(PROGRESS_AFTER_MS - 1);
    expect(batch.progress).toBe('');
    vi.advanceTimersByTime(2);
    expect(batch.progress).toBe('Archiving 3 annotations…');
    answer.resolve({ annotations: rows.map((a) => ({ ...a, isArchived: true })) });
    await running;
    expect(batch.progress).toBe('');
    expect(batch.message).toBe('Archived 3 annotations');
  });
});
