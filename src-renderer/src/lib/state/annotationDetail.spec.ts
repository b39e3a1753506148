import { describe, expect, test } from 'vitest';
import { ApiError } from '../../../../src-shared/errors';
import type { Annotation } from '../services/annotationService';
import { annotationFactory, annotationLogFactory, commentLog } from '../testing/factories';
import { deferred, fakeClient } from '../testing/fakeClient';
import { AnnotationDetailState } from './annotationDetail.svelte';

function engine(initial: Annotation) {
  let current = initial;
  const logs = [
    annotationLogFactory.build({
      annotationId: initial.annotationId,
      kind: 'ANNOTATION_LOG_KIND_STATE_UPDATE',
      comment: undefined,
      stateUpdate: { state: 'ANNOTATION_LOG_STATE_CREATED' },
    }),
  ];
  const fake = fakeClient()
    .on('GetAnnotation', () => ({ annotation: current }))
    .on('ListAnnotationLogs', () => ({ annotationLogs: [...logs], nextPageToken: '' }))
    .on('UpdateAnnotation', (req) => {
      const patch = req.annotation as Partial<Annotation>;
      current = { ...current, ...patch };
      if (req.updateMask === 'state') {
        logs.push(
          annotationLogFactory.build({
            kind: 'ANNOTATION_LOG_KIND_STATE_UPDATE',
            comment: undefined,
            stateUpdate: { state: 'ANNOTATION_LOG_STATE_FLAGGED' },
          }),
        );
      }
      return { annotation: current };
    })
    .on(
      'ArchiveAnnotation',
      () => ((current = { ...current, isArchived: true, archivedDate: '2026-09-03T00:00:00Z' }), { annotation: current }),
    )
    .on('UnarchiveAnnotation', () => ((current = { ...current, isArchived: false, archivedDate: null }), { annotation: current }))
    .on('CreateAnnotationLog', (req) => {
      const body = (req.comment as { body: { text: string }[] }).body;
      const log = commentLog(body[0].text, { annotationId: initial.annotationId });
      logs.push(log);
      return { annotationLog: log };
    });
  return {
    fake,
    logs,
    get current() {
      return current;
    },
  };
}

describe('AnnotationDetailState', () => {
  test('open shows the known row at once, then the fresh version and the history', async () => {
    const row = annotationFactory.build({ name: 'from list' });
    const e = engine({ ...row, name: 'fresh' });
    const changed: Annotation[] = [];
    const detail = new AnnotationDetailState(e.fake.client, (a) => changed.push(a));
    const opening = detail.open(row.annotationId, row);
    expect(detail.annotation?.name).toBe('from list');
    expect(detail.loading).toBe(true);
    await opening;
    expect(detail.annotation?.name).toBe('fresh');
    expect(detail.loading).toBe(false);
    expect(detail.logs).toHaveLength(1);
    expect(changed.map((a) => a.name)).toEqual(['fresh']);
  });

  test('setState PATCHes the state, updates the list and reloads the history', async () => {
    const a = annotationFactory.build();
    const e = engine(a);
    const changed: Annotation[] = [];
    const detail = new AnnotationDetailState(e.fake.client, (x) => changed.push(x));
    await detail.open(a.annotationId, a);
    expect(await detail.setState('ANNOTATION_STATE_FLAGGED')).toBe(true);
    expect(detail.annotation?.state).toBe('ANNOTATION_STATE_FLAGGED');
    expect(changed.at(-1)?.state).toBe('ANNOTATION_STATE_FLAGGED');
    expect(detail.logs.map((l) => l.stateUpdate?.state)).toEqual(['ANNOTATION_LOG_STATE_CREATED', 'ANNOTATION_LOG_STATE_FLAGGED']);
    expect(e.fake.callsTo('UpdateAnnotation')).toEqual([
      { annotation: { annotationId: a.annotationId, state: 'ANNOTATION_STATE_FLAGGED' }, updateMask: 'state' },
    ]);
    // Setting the state it already has sends nothing.
    await detail.setState('ANNOTATION_STATE_FLAGGED');
    expect(e.fake.callsTo('UpdateAnnotation')).toHaveLength(1);
  });

  test('a failed action keeps the annotation and shows the server message', async () => {
    const a = annotationFactory.build();
    const e = engine(a);
    e.fake.on('UpdateAnnotation', () => {
      throw ApiError.invalid('annotation.assigned_to_user_id', "unknown user 'nobody' in this organization");
    });
    const detail = new AnnotationDetailState(e.fake.client);
    await detail.open(a.annotationId, a);
    expect(await detail.assign('nobody')).toBe(false);
    expect(detail.annotation).toEqual(a);
    expect(detail.actionError).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: "annotation.assigned_to_user_id: unknown user 'nobody' in this organization",
    });
    expect(detail.pending).toBeUndefined();
  });

  test('tags: add (no duplicates) and remove send the whole list', async () => {
    const a = annotationFactory.build({ tags: ['thermal'] });
    const e = engine(a);
    const detail = new AnnotationDetailState(e.fake.client);
    await detail.open(a.annotationId, a);
    await detail.addTags(['anomaly', 'thermal']);
    await detail.removeTag('thermal');
    await detail.addTags(['anomaly']); // already there: nothing sent
    expect(e.fake.callsTo('UpdateAnnotation')).toEqual([
      { annotation: { annotationId: a.annotationId, tags: ['thermal', 'anomaly'] }, updateMask: 'tags' },
      { annotation: { annotationId: a.annotationId, tags: ['anomaly'] }, updateMask: 'tags' },
    ]);
    expect(detail.annotation?.tags).toEqual(['anomaly']);
  });

  test('archive and unarchive', async () => {
    const a = annotationFactory.build();
    const detail = new AnnotationDetailState(engine(a).fake.client);
    await detail.open(a.annotationId, a);
    await detail.setArchived(true);
    expect(detail.annotation?.isArchived).toBe(true);
    await detail.setArchived(false);
    expect(detail.annotation?.isArchived).toBe(false);
  });

  test('comment appends the new log; blank comments are not sent', async () => {
    const a = annotationFactory.build();
    const e = engine(a);
    const detail = new AnnotationDetailState(e.fake.client);
    await detail.open(a.annotationId, a);
    expect(await detail.comment('   ')).toBe(false);
    expect(await detail.comment('  Checked against run 12  ')).toBe(true);
    expect(detail.logs.at(-1)?.comment?.body[0].text).toBe('Checked against run 12');
    expect(e.fake.callsTo('CreateAnnotationLog')).toHaveLength(1);
  });

  test('results for a previously selected annotation are dropped', async () => {
    const [first, second] = annotationFactory.buildList(2);
    const slow = deferred<unknown>();
    const fake = fakeClient()
      .on('GetAnnotation', (req) => (req.annotationId === first.annotationId ? slow.promise : { annotation: second }))
      .on('ListAnnotationLogs', () => ({ annotationLogs: [], nextPageToken: '' }));
    const detail = new AnnotationDetailState(fake.client);
    const opening = detail.open(first.annotationId, first);
    await detail.open(second.annotationId, second);
    slow.resolve({ annotation: { ...first, name: 'stale' } });
    await opening;
    expect(detail.annotation).toEqual(second);
    expect(detail.loading).toBe(false);
  });

  test('a load error is kept', async () => {
    const fake = fakeClient()
      .on('GetAnnotation', () => {
        throw ApiError.notFound('annotation', 'gone');
      })
      .on('ListAnnotationLogs', () => ({ annotationLogs: [], nextPageToken: '' }));
    const detail = new AnnotationDetailState(fake.client);
    await detail.open('gone');
    expect(detail.error).toMatchObject({ code: 'NOT_FOUND', message: 'annotation not found: gone' });
    detail.close();
    expect(detail.error).toBeUndefined();
    expect(detail.annotation).toBeUndefined();
  });
});
