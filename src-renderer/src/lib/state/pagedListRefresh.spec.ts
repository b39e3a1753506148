// PagedList.refresh (issue #30): rows read again in place, changed ones marked,
// rows the query no longer lists kept (marked) until the next load.
import { describe, expect, test } from 'vitest';
import { ApiError, Code } from '../../../../src-shared/errors';
import { PagedList, type Page } from './pagedList.svelte';

interface Row {
  id: string;
  label: string;
}

function listOver(pages: () => Record<string, Page<Row>>) {
  return new PagedList<Row, string>({
    fetchPage: async (_filter, token) => pages()[token ?? ''],
    keyOf: (r) => r.id,
  });
}

const row = (id: string, label = id): Row => ({ id, label });

describe('PagedList.refresh', () => {
  test('re-reads every shown page in place, marks new and changed rows, keeps rows gone from the query where they were', async () => {
    let server: Record<string, Page<Row>> = {
      '': { items: [row('a'), row('b')], nextPageToken: 'p2' },
      p2: { items: [row('c'), row('d')], nextPageToken: '' },
    };
    const list = listOver(() => server);
    await list.load('f');
    await list.loadMore();
    expect(list.items.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd']);

    // b renamed, c no longer matches, e new.
    server = {
      '': { items: [row('a'), row('b', 'B!')], nextPageToken: 'p2' },
      p2: { items: [row('d'), row('e')], nextPageToken: '' },
    };
    await list.refresh();
    expect(list.items.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(list.get('b')?.label).toBe('B!');
    expect([...list.changed].sort()).toEqual(['b', 'c', 'e']);
    expect(list.isChanged('a')).toBe(false);

    // The user moves on: the next load shows the query as it is, nothing marked.
    await list.load('f');
    await list.loadMore();
    expect(list.items.map((r) => r.id)).toEqual(['a', 'b', 'd', 'e']);
    expect(list.changed.size).toBe(0);
  });

  test('a load started during a refresh wins: the refresh result is dropped', async () => {
    let release: () => void = () => {};
    let slow = false;
    const list = new PagedList<Row, string>({
      fetchPage: async (filter) => {
        if (slow) await new Promise<void>((r) => (release = r));
        return { items: [row(`${filter}-1`)], nextPageToken: '' };
      },
      keyOf: (r) => r.id,
    });
    await list.load('old');
    slow = true;
    const refreshing = list.refresh();
    slow = false;
    await list.load('new');
    release();
    await refreshing;
    expect(list.items.map((r) => r.id)).toEqual(['new-1']);
    expect(list.changed.size).toBe(0);
  });
});

describe('PagedList.replace', () => {
  test('a version written elsewhere is marked even when the open detail read it before the list refreshed; our own edit is not', async () => {
    const list = listOver(() => ({ '': { items: [row('a'), row('b')], nextPageToken: '' } }));
    await list.load('f');
    list.replace(row('a', 'ours'));
    expect(list.isChanged('a')).toBe(false);
    list.replace(row('b', 'theirs'), true);
    expect(list.get('b')?.label).toBe('theirs');
    expect(list.isChanged('b')).toBe(true);
    // The same version again (the list's own refresh right after) adds nothing new.
    list.replace(row('a', 'ours'), true);
    expect(list.isChanged('a')).toBe(false);
  });

  test('a list whose load failed (the engine did not answer) loads again on a refresh, and its error goes', async () => {
    let answering = false;
    const list = new PagedList<Row, string>({
      fetchPage: async (filter) => {
        if (!answering) throw new ApiError(Code.UNAVAILABLE, 'the engine stopped unexpectedly');
        return { items: [row(`for ${filter}`)], nextPageToken: '' };
      },
      keyOf: (r) => r.id,
    });
    await list.load('f');
    expect(list.error).toMatchObject({ code: 'UNAVAILABLE' });
    await list.refresh(); // still down: still the error, nothing shown
    expect(list.error).toMatchObject({ code: 'UNAVAILABLE' });
    answering = true;
    await list.refresh();
    expect(list.error).toBeUndefined();
    expect(list.items.map((r) => r.id)).toEqual(['for f']);
    expect(list.shownQuery).toBe('f');
  });
});
