import { describe, expect, test } from 'vitest';
import { ApiError, Code } from '../../../../src-shared/errors';
import { deferred } from '../testing/fakeClient';
import { PagedList, type Page } from './pagedList.svelte';

interface Row {
  id: string;
  label?: string;
}

interface Query {
  filter: string;
}

/** A page source whose responses the test sends, in whatever order it likes. */
function controlledSource() {
  const requests: { query: Query; pageToken?: string; response: ReturnType<typeof deferred<Page<Row>>> }[] = [];
  const list = new PagedList<Row, Query>({
    fetchPage(query, pageToken) {
      const response = deferred<Page<Row>>();
      requests.push({ query, pageToken, response });
      return response.promise;
    },
    keyOf: (row) => row.id,
    filterOf: (query) => query.filter,
  });
  return { list, requests };
}

const rows = (...ids: string[]): Row[] => ids.map((id) => ({ id }));
const ids = (list: PagedList<Row, Query>) => list.items.map((r) => r.id);

/** A list whose first page (a, b; next page "p2") has arrived. */
async function loadedList() {
  const source = controlledSource();
  const load = source.list.load({ filter: 'f' });
  source.requests[0].response.resolve({ items: rows('a', 'b'), nextPageToken: 'p2' });
  await load;
  return source;
}

describe('PagedList: loading', () => {
  test('load lists the first page of the query and tells "loading" from "loaded"', async () => {
    const { list, requests } = controlledSource();
    expect(list.loaded).toBe(false);
    const load = list.load({ filter: 'f' });
    expect(list.loading).toBe(true);
    expect(list.busy).toBe(true);
    expect(requests.map((r) => [r.query, r.pageToken])).toEqual([[{ filter: 'f' }, undefined]]);
    requests[0].response.resolve({ items: rows('a', 'b'), nextPageToken: 'p2' });
    await load;
    expect(list.loading).toBe(false);
    expect(list.loaded).toBe(true);
    expect(ids(list)).toEqual(['a', 'b']);
    expect(list.hasMore).toBe(true);
    expect(list.shownQuery).toEqual({ filter: 'f' });
  });

  test('loadMore continues the shown query with the token, appends, and stops at the last page', async () => {
    const { list, requests } = await loadedList();
    const more = list.loadMore();
    expect(list.loadingMore).toBe(true);
    expect(list.loading).toBe(false);
    expect(requests[1]).toMatchObject({ query: { filter: 'f' }, pageToken: 'p2' });
    requests[1].response.resolve({ items: rows('c'), nextPageToken: '' });
    await more;
    expect(ids(list)).toEqual(['a', 'b', 'c']);
    expect(list.loadingMore).toBe(false);
    expect(list.hasMore).toBe(false);
    await list.loadMore();
    expect(requests).toHaveLength(2);
  });

  test('rows a later page repeats are shown once', async () => {
    const { list, requests } = await loadedList();
    const more = list.loadMore();
    requests[1].response.resolve({ items: rows('b', 'c'), nextPageToken: '' });
    await more;
    expect(ids(list)).toEqual(['a', 'b', 'c']);
  });

  test('loadMore does nothing while a first page or another next page is being listed', async () => {
    const { list, requests } = await loadedList();
    const more = list.loadMore();
    await list.loadMore();
    expect(requests).toHaveLength(2);
    requests[1].response.resolve({ items: rows('c'), nextPageToken: 'p3' });
    await more;

    const reload = list.load({ filter: 'f' });
    await list.loadMore();
    expect(requests).toHaveLength(3);
    expect(requests[2].pageToken).toBeUndefined();
    requests[2].response.resolve({ items: rows('a'), nextPageToken: '' });
    await reload;
  });
});

describe('PagedList: stale responses', () => {
  test('a slow earlier load never overwrites a later one, whether it succeeds or fails', async () => {
    const { list, requests } = controlledSource();
    const first = list.load({ filter: 'old' });
    const second = list.load({ filter: 'older' });
    const third = list.load({ filter: 'new' });
    requests[2].response.resolve({ items: rows('n'), nextPageToken: '' });
    await third;
    requests[0].response.resolve({ items: rows('x', 'y'), nextPageToken: 'more' });
    requests[1].response.reject(ApiError.invalid('filter', 'syntax error'));
    await Promise.all([first, second]);
    expect(ids(list)).toEqual(['n']);
    expect(list.hasMore).toBe(false);
    expect(list.shownQuery).toEqual({ filter: 'new' });
    expect(list.filterError).toBeUndefined();
    expect(list.error).toBeUndefined();
    expect(list.loading).toBe(false);
  });

  test('the spinner stays on while the latest load runs, even when an older one ends first', async () => {
    const { list, requests } = controlledSource();
    const first = list.load({ filter: 'a' });
    const second = list.load({ filter: 'b' });
    requests[0].response.resolve({ items: rows('a'), nextPageToken: '' });
    await first;
    expect(list.loading).toBe(true);
    expect(list.items).toEqual([]);
    requests[1].response.resolve({ items: rows('b'), nextPageToken: '' });
    await second;
    expect(list.loading).toBe(false);
    expect(ids(list)).toEqual(['b']);
  });

  test('a reload while "Load more" is running discards the page of the old rows', async () => {
    const { list, requests } = await loadedList();
    const more = list.loadMore();
    const reload = list.load({ filter: 'g' });
    expect(list.loadingMore).toBe(false);
    requests[2].response.resolve({ items: rows('g1'), nextPageToken: 'g2' });
    await reload;
    requests[1].response.resolve({ items: rows('c'), nextPageToken: 'p3' });
    await more;
    expect(ids(list)).toEqual(['g1']);
    expect(list.nextPageToken).toBe('g2');
    expect(list.loadingMore).toBe(false);
  });

  test('a next page that fails after a reload leaves the new rows without an error', async () => {
    const { list, requests } = await loadedList();
    const more = list.loadMore();
    const reload = list.load({ filter: 'f' });
    requests[1].response.reject(ApiError.invalid('page_token', 'does not match the request'));
    await more;
    expect(list.error).toBeUndefined();
    expect(list.loading).toBe(true);
    requests[2].response.resolve({ items: rows('a'), nextPageToken: '' });
    await reload;
    expect(ids(list)).toEqual(['a']);
    expect(list.error).toBeUndefined();
  });
});

describe('PagedList: errors', () => {
  test('a failed first page clears the rows and shows a list error; the next success clears it', async () => {
    const { list, requests } = await loadedList();
    const failing = list.load({ filter: '' });
    requests[1].response.reject(new ApiError(Code.UNAVAILABLE, 'engine restarting'));
    await failing;
    expect(list.items).toEqual([]);
    expect(list.hasMore).toBe(false);
    expect(list.loaded).toBe(true);
    expect(list.loading).toBe(false);
    expect(list.error).toMatchObject({ code: 'UNAVAILABLE', message: 'engine restarting' });
    expect(list.filterError).toBeUndefined();
    expect(list.shownQuery).toEqual({ filter: 'f' }); // still the query of the last rows shown

    const retry = list.load({ filter: '' });
    requests[2].response.resolve({ items: rows('a'), nextPageToken: '' });
    await retry;
    expect(list.error).toBeUndefined();
    expect(ids(list)).toEqual(['a']);
  });

  test('a first page rejected for its filter is a filter error, not a list error', async () => {
    const { list, requests } = controlledSource();
    const rejected = list.load({ filter: 'nmae == "x"' });
    requests[0].response.reject(ApiError.invalid('filter', "undeclared reference to 'nmae'"));
    await rejected;
    expect(list.filterError).toMatchObject({ code: 'INVALID_ARGUMENT', message: "filter: undeclared reference to 'nmae'" });
    expect(list.error).toBeUndefined();

    const cannotRun = list.load({ filter: 'x' });
    requests[1].response.reject(ApiError.unimplemented('this filter cannot be compiled'));
    await cannotRun;
    expect(list.filterError?.code).toBe('UNIMPLEMENTED');

    const fixed = list.load({ filter: 'name == "x"' });
    requests[2].response.resolve({ items: rows('x'), nextPageToken: '' });
    await fixed;
    expect(list.filterError).toBeUndefined();
  });

  test('without a filter (blank, or a list with no filter box) the same failure is a list error', async () => {
    const { list, requests } = controlledSource();
    const blank = list.load({ filter: '   ' });
    requests[0].response.reject(ApiError.invalid('page_size', 'too large'));
    await blank;
    expect(list.error?.code).toBe('INVALID_ARGUMENT');
    expect(list.filterError).toBeUndefined();

    const unfiltered = new PagedList<Row, Query>({
      fetchPage: () => Promise.reject(ApiError.invalid('filter', 'syntax error')),
      keyOf: (row) => row.id,
    });
    await unfiltered.load({ filter: '((' });
    expect(unfiltered.error?.message).toBe('filter: syntax error');
    expect(unfiltered.filterError).toBeUndefined();
  });

  test('a filter query that fails for another reason is a list error', async () => {
    const { list, requests } = controlledSource();
    const load = list.load({ filter: 'a == 1' });
    requests[0].response.reject(ApiError.permissionDenied('read-only profile'));
    await load;
    expect(list.error?.code).toBe('PERMISSION_DENIED');
    expect(list.filterError).toBeUndefined();
  });

  test('a failed "Load more" keeps the rows and the token, so it can be retried', async () => {
    const { list, requests } = await loadedList();
    const failing = list.loadMore();
    requests[1].response.reject(ApiError.invalid('page_token', 'does not match the request'));
    await failing;
    expect(ids(list)).toEqual(['a', 'b']);
    expect(list.nextPageToken).toBe('p2');
    expect(list.error?.message).toBe('page_token: does not match the request');
    expect(list.filterError).toBeUndefined();
    expect(list.loadingMore).toBe(false);

    const retry = list.loadMore();
    expect(requests[2].pageToken).toBe('p2');
    requests[2].response.resolve({ items: rows('c'), nextPageToken: '' });
    await retry;
    expect(ids(list)).toEqual(['a', 'b', 'c']);
    expect(list.error).toBeUndefined();
  });
});

describe('PagedList: edits', () => {
  test('replace puts a newer version of a shown row in its place and ignores rows not shown', async () => {
    const { list } = await loadedList();
    list.replace({ id: 'b', label: 'edited' });
    list.replace({ id: 'z', label: 'elsewhere' });
    expect(list.items).toEqual([{ id: 'a' }, { id: 'b', label: 'edited' }]);
  });

  test('replaceAll puts many newer versions in their places at once and ignores rows not shown', async () => {
    const { list } = await loadedList();
    const before = list.items;
    list.replaceAll([{ id: 'z', label: 'elsewhere' }]);
    expect(list.items).toBe(before);
    list.replaceAll([
      { id: 'b', label: 'edited b' },
      { id: 'z', label: 'elsewhere' },
      { id: 'a', label: 'edited a' },
    ]);
    expect(list.items).toEqual([
      { id: 'a', label: 'edited a' },
      { id: 'b', label: 'edited b' },
    ]);
  });

  test('insert shows a created row first, or in the given order, never twice', async () => {
    const { list } = await loadedList();
    list.insert({ id: 'new' });
    expect(ids(list)).toEqual(['new', 'a', 'b']);
    list.insert({ id: 'new', label: 'again' });
    expect(list.items[0]).toEqual({ id: 'new', label: 'again' });
    expect(list.items).toHaveLength(3);
    list.insert({ id: 'ab' }, (x, y) => x.id.localeCompare(y.id));
    expect(ids(list)).toEqual(['a', 'ab', 'b', 'new']);
  });
});

describe('PagedList: lookup by key', () => {
  /** has/indexOf/get agree with `items` for every key shown, and know no other. */
  const expectIndexed = (list: PagedList<Row, Query>, absent: string[] = []) => {
    list.items.forEach((row, i) => {
      expect(list.indexOf(row.id)).toBe(i);
      expect(list.get(row.id)).toBe(row);
      expect(list.has(row.id)).toBe(true);
    });
    for (const id of absent) expect([list.indexOf(id), list.get(id), list.has(id)]).toEqual([-1, undefined, false]);
  };

  test('follows first pages, next pages (repeats skipped), replace, insert and a failed load', async () => {
    const { list, requests } = await loadedList();
    expectIndexed(list, ['c', 'z']);
    const more = list.loadMore();
    requests[1].response.resolve({ items: rows('b', 'c', 'd'), nextPageToken: '' });
    await more;
    expect(ids(list)).toEqual(['a', 'b', 'c', 'd']);
    expectIndexed(list, ['z']);
    list.replace({ id: 'c', label: 'edited' });
    expect(list.get('c')).toEqual({ id: 'c', label: 'edited' });
    expectIndexed(list);
    list.insert({ id: 'new' });
    expectIndexed(list, ['z']);
    expect(list.indexOf('a')).toBe(1);

    const reload = list.load({ filter: 'g' });
    requests[2].response.resolve({ items: rows('x'), nextPageToken: '' });
    await reload;
    expectIndexed(list, ['a', 'new']);
    const failed = list.load({ filter: 'h' });
    requests[3].response.reject(new Error('down'));
    await failed;
    expect(list.items).toEqual([]);
    expectIndexed(list, ['x']);
  });
});
