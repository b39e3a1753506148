import { describe, expect, test } from 'vitest';
import { ApiError } from '../../../../src-shared/errors';
import { annotationFactory, annotationLogFactory, commentLog } from '../testing/factories';
import { fakeClient } from '../testing/fakeClient';
import {
  addComment,
  assignAnnotation,
  DEFAULT_SORT,
  listAllLogs,
  listAnnotations,
  listedFilter,
  orderByOf,
  parseTags,
  setAnnotationState,
  setAnnotationTags,
  setArchived,
} from './annotationService';

describe('annotationService', () => {
  test('orderByOf', () => {
    expect(orderByOf({ field: 'name', desc: false })).toBe('name');
    expect(orderByOf({ field: 'created_date', desc: true })).toBe('created_date desc');
    expect(orderByOf(DEFAULT_SORT)).toBe('created_date desc');
  });

  test('listAnnotations sends page size, order, trimmed filter and token', async () => {
    const page = annotationFactory.buildList(2);
    const fake = fakeClient().on('ListAnnotations', () => ({ annotations: page, nextPageToken: 'next' }));
    await expect(listAnnotations(fake.client, { filter: '  name == "x" ', sort: { field: 'name', desc: false } }, 'tok')).resolves.toEqual({
      annotations: page,
      nextPageToken: 'next',
    });
    await listAnnotations(fake.client, { filter: '   ', sort: DEFAULT_SORT });
    expect(fake.callsTo('ListAnnotations')).toEqual([
      { pageSize: 50, orderBy: 'name', filter: 'name == "x" && is_archived == false', pageToken: 'tok' },
      { pageSize: 50, orderBy: 'created_date desc', filter: 'is_archived == false' },
    ]);
  });

  test('archived annotations are hidden unless shown or the filter is about them', () => {
    expect(listedFilter('', false)).toBe('is_archived == false');
    expect(listedFilter('state == ANNOTATION_STATE_OPEN', false)).toBe('state == ANNOTATION_STATE_OPEN && is_archived == false');
    expect(listedFilter('a == "1" || b == "2"', false)).toBe('(a == "1" || b == "2") && is_archived == false');
    expect(listedFilter('state == ANNOTATION_STATE_OPEN', true)).toBe('state == ANNOTATION_STATE_OPEN');
    expect(listedFilter('is_archived', false)).toBe('is_archived');
    expect(listedFilter('annotation_id == "x"', false)).toBe('annotation_id == "x"');
  });

  test('a rejected filter is reported as typed, not with the archived clause added', async () => {
    const fake = fakeClient().on('ListAnnotations', (r) => {
      throw ApiError.invalid('filter', `cannot parse: ${String(r.filter)}`);
    });
    await expect(listAnnotations(fake.client, { filter: 'name ==', sort: DEFAULT_SORT })).rejects.toThrow('cannot parse: name ==');
  });

  test('state, assignee and tags are PATCHes naming one field in update_mask', async () => {
    const a = annotationFactory.build();
    const fake = fakeClient().on('UpdateAnnotation', () => ({ annotation: a }));
    await setAnnotationState(fake.client, a.annotationId, 'ANNOTATION_STATE_FLAGGED');
    await assignAnnotation(fake.client, a.annotationId, 'user-2');
    await assignAnnotation(fake.client, a.annotationId, '');
    await setAnnotationTags(fake.client, a.annotationId, ['thermal', 'anomaly']);
    expect(fake.callsTo('UpdateAnnotation')).toEqual([
      { annotation: { annotationId: a.annotationId, state: 'ANNOTATION_STATE_FLAGGED' }, updateMask: 'state' },
      { annotation: { annotationId: a.annotationId, assignedToUserId: 'user-2' }, updateMask: 'assigned_to_user_id' },
      { annotation: { annotationId: a.annotationId, assignedToUserId: '' }, updateMask: 'assigned_to_user_id' },
      { annotation: { annotationId: a.annotationId, tags: ['thermal', 'anomaly'] }, updateMask: 'tags' },
    ]);
  });

  test('archive and unarchive', async () => {
    const a = annotationFactory.build();
    const fake = fakeClient()
      .on('ArchiveAnnotation', () => ({ annotation: { ...a, isArchived: true } }))
      .on('UnarchiveAnnotation', () => ({ annotation: a }));
    expect((await setArchived(fake.client, a.annotationId, true)).isArchived).toBe(true);
    expect((await setArchived(fake.client, a.annotationId, false)).isArchived).toBe(false);
    expect(fake.calls.map((c) => c.name)).toEqual(['ArchiveAnnotation', 'UnarchiveAnnotation']);
  });

  test('listAllLogs follows page tokens', async () => {
    const first = annotationLogFactory.buildList(2);
    const second = annotationLogFactory.buildList(1);
    const fake = fakeClient().on('ListAnnotationLogs', (req) =>
      req.pageToken ? { annotationLogs: second, nextPageToken: '' } : { annotationLogs: first, nextPageToken: 'p2' },
    );
    const { logs, truncated } = await listAllLogs(fake.client, 'a1');
    expect(logs).toEqual([...first, ...second]);
    expect(truncated).toBe(false);
    expect(fake.callsTo('ListAnnotationLogs')).toEqual([
      { annotationId: 'a1', pageSize: 200 },
      { annotationId: 'a1', pageSize: 200, pageToken: 'p2' },
    ]);
  });

  test('listAllLogs stops at the limit and says so', async () => {
    const fake = fakeClient().on('ListAnnotationLogs', () => ({
      annotationLogs: annotationLogFactory.buildList(3),
      nextPageToken: 'more',
    }));
    const { logs, truncated } = await listAllLogs(fake.client, 'a1', 5);
    expect(logs).toHaveLength(6);
    expect(truncated).toBe(true);
  });

  test('addComment posts a COMMENT log with one text element', async () => {
    const log = commentLog('Looks like sensor drift');
    const fake = fakeClient().on('CreateAnnotationLog', () => ({ annotationLog: log }));
    await expect(addComment(fake.client, 'a1', 'Looks like sensor drift')).resolves.toEqual(log);
    expect(fake.callsTo('CreateAnnotationLog')).toEqual([
      {
        annotationId: 'a1',
        kind: 'ANNOTATION_LOG_KIND_COMMENT',
        comment: { body: [{ type: 'ANNOTATION_COMMENT_BODY_ELEMENT_TYPE_TEXT', text: 'Looks like sensor drift' }] },
      },
    ]);
  });

  test('parseTags', () => {
    expect(parseTags(' thermal, needs review ,thermal,, ')).toEqual(['thermal', 'needs review']);
    expect(parseTags('')).toEqual([]);
  });
});
