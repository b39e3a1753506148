import { describe, expect, test } from 'vitest';
import { ApiError, Code } from '../../../../src-shared/errors';
import { annotationFactory } from '../testing/factories';
import { deferred, fakeClient } from '../testing/fakeClient';
import { AnnotationListState } from './annotationList.svelte';

describe('AnnotationListState', () => {
  test('load lists the first page with the current filter and sort', async () => {
    const page = annotationFactory.buildList(3);
    const fake = fakeClient().on('ListAnnotations', () => ({ annotations: page, nextPageToken: 'p2' }));
    const list = new AnnotationListState(fake.client);
    expect(list.pages.loaded).toBe(false);
    const loading = list.load();
    expect(list.pages.loading).toBe(true);
    await loading;
    expect(list.pages.loading).toBe(false);
    expect(list.pages.loaded).toBe(true);
    expect(list.pages.items).toEqual(page);
    expect(list.pages.hasMore).toBe(true);
    expect(fake.callsTo('ListAnnotations')).toEqual([{ pageSize: 200, orderBy: 'created_date desc', filter: 'is_archived == false' }]);
  });

  test('load asks for the rows before the count (one engine answers in order; the count of 100k costs more)', async () => {
    const fake = fakeClient()
      .on('ListAnnotations', () => ({ annotations: annotationFactory.buildList(1), nextPageToken: '' }))
      .on('CountAnnotations', () => ({ count: '1', exact: true }));
    const list = new AnnotationListState(fake.client);
    await list.load();
    expect(fake.calls.map((c) => c.name)).toEqual(['ListAnnotations', 'CountAnnotations']);
    expect(list.total).toEqual({ count: 1, exact: true });
  });

  test('loadMore appends the next page and stops when there is no token', async () => {
    const [p1, p2] = [annotationFactory.buildList(2), annotationFactory.buildList(2)];
    const fake = fakeClient().on('ListAnnotations', (req) =>
      req.pageToken === 'p2' ? { annotations: p2, nextPageToken: '' } : { annotations: p1, nextPageToken: 'p2' },
    );
    const list = new AnnotationListState(fake.client);
    await list.applyFilter('name.contains("a")');
    await list.pages.loadMore();
    expect(list.pages.items).toEqual([...p1, ...p2]);
    expect(list.pages.hasMore).toBe(false);
    await list.pages.loadMore(); // nothing more to load: no request
    expect(fake.callsTo('ListAnnotations')).toEqual([
      { pageSize: 200, orderBy: 'created_date desc', filter: 'name.contains("a") && is_archived == false' },
      { pageSize: 200, orderBy: 'created_date desc', filter: 'name.contains("a") && is_archived == false', pageToken: 'p2' },
    ]);
  });

  test('rows of one list share their repeated parts across pages; a new first page starts afresh', async () => {
    const tags = ['needs-review'];
    const fake = fakeClient().on('ListAnnotations', (req) => ({
      // JSON copies, as the transport delivers them.
      annotations: JSON.parse(JSON.stringify(annotationFactory.buildList(2, { tags }))) as ReturnType<typeof annotationFactory.buildList>,
      nextPageToken: req.pageToken ? '' : 'p2',
    }));
    const list = new AnnotationListState(fake.client);
    await list.load();
    await list.pages.loadMore();
    const [first, , third] = list.pages.items;
    expect(third.tags).toEqual(tags);
    expect(third.tags).toBe(first.tags);
    await list.load();
    expect(list.pages.items[0].tags).toEqual(tags);
    expect(list.pages.items[0].tags).not.toBe(first.tags);
  });

  test('loadMore keeps using the applied filter, not what is being typed', async () => {
    const fake = fakeClient().on('ListAnnotations', () => ({ annotations: annotationFactory.buildList(1), nextPageToken: 'p2' }));
    const list = new AnnotationListState(fake.client);
    await list.applyFilter('a == 1');
    list.filterText = 'half typed';
    await list.pages.loadMore();
    expect(fake.callsTo('ListAnnotations')[1]).toMatchObject({ filter: 'a == 1 && is_archived == false', pageToken: 'p2' });
  });

  test('a rejected filter is shown as a filter error with the server message, and the previous rows stay', async () => {
    const fake = fakeClient().on('ListAnnotations', (req) => {
      if (String(req.filter).includes('nmae')) throw ApiError.invalid('filter', "1:1: undeclared reference to 'nmae'");
      return { annotations: annotationFactory.buildList(2), nextPageToken: '' };
    });
    const list = new AnnotationListState(fake.client);
    await list.load();
    await list.applyFilter('nmae == "x"');
    expect(list.pages.filterError).toMatchObject({ code: 'INVALID_ARGUMENT', message: "filter: 1:1: undeclared reference to 'nmae'" });
    expect(list.pages.error).toBeUndefined();
    // The rows listed before the typo stay.
    expect(list.pages.items).toHaveLength(2);
    expect(list.appliedFilter).toBe('');
    await list.applyFilter('');
    expect(list.pages.filterError).toBeUndefined();
    expect(list.pages.items).toHaveLength(2);
  });

  test('UNIMPLEMENTED for a filter is a filter error too; without a filter it is a list error', async () => {
    const fake = fakeClient().on('ListAnnotations', () => {
      throw ApiError.unimplemented('this filter cannot be compiled');
    });
    const list = new AnnotationListState(fake.client);
    await list.applyFilter('x');
    expect(list.pages.filterError?.code).toBe('UNIMPLEMENTED');
    await list.applyFilter('');
    expect(list.pages.filterError).toBeUndefined();
    expect(list.pages.error).toMatchObject({ code: 'UNIMPLEMENTED', message: 'this filter cannot be compiled' });
  });

  test('the Archived chip lists archived annotations too', async () => {
    const fake = fakeClient().on('ListAnnotations', () => ({ annotations: [], nextPageToken: '' }));
    const list = new AnnotationListState(fake.client);
    await list.applyFilter('state == ANNOTATION_STATE_OPEN');
    await list.setShowArchived(true);
    expect(fake.callsTo('ListAnnotations').map((r) => r.filter)).toEqual([
      'state == ANNOTATION_STATE_OPEN && is_archived == false',
      'state == ANNOTATION_STATE_OPEN',
    ]);
  });

  test('setSort reloads with order_by', async () => {
    const fake = fakeClient().on('ListAnnotations', () => ({ annotations: [], nextPageToken: '' }));
    const list = new AnnotationListState(fake.client);
    await list.setSort({ field: 'name', desc: false });
    await list.setSort({ field: 'start_time', desc: true });
    expect(fake.callsTo('ListAnnotations').map((r) => r.orderBy)).toEqual(['name', 'start_time desc']);
  });

  test('a slow response to an older query is dropped', async () => {
    const slow = deferred<unknown>();
    const newer = annotationFactory.buildList(1, { name: 'newer' });
    const fake = fakeClient().on('ListAnnotations', (req) =>
      req.filter === 'old' ? slow.promise : { annotations: newer, nextPageToken: '' },
    );
    const list = new AnnotationListState(fake.client);
    const first = list.applyFilter('old');
    await list.applyFilter('new');
    slow.resolve({ annotations: annotationFactory.buildList(5), nextPageToken: 'x' });
    await first;
    expect(list.pages.items).toEqual(newer);
    expect(list.appliedFilter).toBe('new');
    expect(list.pages.loading).toBe(false);
  });

  test('a failed loadMore keeps the rows and shows the error', async () => {
    const fake = fakeClient().on('ListAnnotations', (req) => {
      if (req.pageToken) throw new ApiError(Code.INVALID_ARGUMENT, 'page_token: does not match the request');
      return { annotations: annotationFactory.buildList(2), nextPageToken: 'p2' };
    });
    const list = new AnnotationListState(fake.client);
    await list.load();
    await list.pages.loadMore();
    expect(list.pages.items).toHaveLength(2);
    expect(list.pages.error?.message).toBe('page_token: does not match the request');
    expect(list.pages.loadingMore).toBe(false);
  });

  test('an edited annotation replaces its row in place', async () => {
    const rows = annotationFactory.buildList(3);
    const fake = fakeClient().on('ListAnnotations', () => ({ annotations: rows, nextPageToken: '' }));
    const list = new AnnotationListState(fake.client);
    await list.load();
    list.pages.replace({ ...rows[1], state: 'ANNOTATION_STATE_RESOLVED' });
    list.pages.replace(annotationFactory.build()); // not in the list: ignored
    expect(list.pages.items.map((a) => a.state)).toEqual(['ANNOTATION_STATE_OPEN', 'ANNOTATION_STATE_RESOLVED', 'ANNOTATION_STATE_OPEN']);
  });

  test('requestedFilter is the latest filter asked for, before its rows arrive (quick filters build on it)', async () => {
    const slow = deferred<{ annotations: never[]; nextPageToken: string }>();
    const fake = fakeClient().on('ListAnnotations', (req) =>
      req.filter === 'a == 1' ? slow.promise : { annotations: [], nextPageToken: '' },
    );
    const list = new AnnotationListState(fake.client);
    await list.load();
    const first = list.applyFilter('a == 1');
    expect(list.requestedFilter).toBe('a == 1');
    expect(list.appliedFilter).toBe('');
    const second = list.applyFilter('a == 1 && b == 2');
    expect(list.requestedFilter).toBe('a == 1 && b == 2');
    slow.resolve({ annotations: [], nextPageToken: '' });
    await Promise.all([first, second]);
    expect(list.requestedFilter).toBe('a == 1 && b == 2');
    expect(list.appliedFilter).toBe('a == 1 && b == 2');
  });
});
