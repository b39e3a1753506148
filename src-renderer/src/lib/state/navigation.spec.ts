import { expect, test } from 'vitest';
import { NavigationState } from './navigation.svelte';
import { formatRoute, parseRoute } from './route';

test('views round-trip through the fragment; anything else is the annotations view', () => {
  expect(parseRoute(formatRoute({ view: 'policies', annotations: parseRoute('').annotations })).view).toBe('policies');
  expect(parseRoute('#/test-reports').view).toBe('test-reports');
  expect(parseRoute('#/sync').view).toBe('sync');
  expect(parseRoute('').view).toBe('annotations');
  expect(parseRoute('#/nope').view).toBe('annotations');
  const nav = new NavigationState('#/artifacts');
  expect(nav.view).toBe('artifacts');
  nav.go('saved-searches');
  expect(nav.view).toBe('saved-searches');
  expect(nav.hash).toBe('#/saved-searches');
});

test('the annotations route round-trips filter, sort, the Archived chip and the open record; defaults stay out', () => {
  const route = {
    view: 'annotations' as const,
    annotations: {
      filter: 'name.contains("a & b") && state == ANNOTATION_STATE_OPEN',
      sort: { field: 'name' as const, desc: false },
      showArchived: true,
      open: 'a1',
    },
  };
  const hash = formatRoute(route);
  expect(hash).toBe(
    '#/annotations?q=name.contains%28%22a%20%26%20b%22%29%20%26%26%20state%20%3D%3D%20ANNOTATION_STATE_OPEN&order=name&archived=1&open=a1',
  );
  expect(parseRoute(hash)).toEqual(route);
  expect(formatRoute(parseRoute('#/annotations'))).toBe('#/annotations');
  expect(parseRoute('#/annotations?order=start_time%20desc').annotations.sort).toEqual({ field: 'start_time', desc: true });
  // An order the list cannot sort by falls back to the default.
  expect(parseRoute('#/annotations?order=bogus').annotations.sort).toEqual({ field: 'created_date', desc: true });
});

test('a new query is a new history entry; another open record replaces the entry', () => {
  const nav = new NavigationState('#/annotations');
  const query = { filter: 'name == "x"', sort: { field: 'name' as const, desc: false }, showArchived: false };
  nav.showAnnotations(query);
  expect(nav.historyMode).toBe('push');
  expect(nav.hash).toBe('#/annotations?q=name%20%3D%3D%20%22x%22&order=name');
  nav.showAnnotations({ ...query, open: 'a1' });
  expect(nav.historyMode).toBe('replace');
  expect(nav.hash).toContain('&open=a1');
});

test('openAnnotations shows the query and the record, and counts as an arrival; other views keep the last route', () => {
  const nav = new NavigationState('#/sync');
  const before = nav.arrivals;
  nav.openAnnotations({ filter: "annotation_id == 'a1'", sort: { field: 'created_date', desc: true } }, 'a1');
  expect(nav.view).toBe('annotations');
  expect(nav.annotations).toEqual({
    filter: "annotation_id == 'a1'",
    sort: { field: 'created_date', desc: true },
    showArchived: false,
    open: 'a1',
  });
  expect(nav.arrivals).toBe(before + 1);
  nav.go('policies');
  nav.fromHash('#/rules');
  nav.go('annotations');
  expect(nav.annotations.open).toBe('a1');
});

test("another view's open record round-trips through the fragment; going to the view afresh opens none", () => {
  expect(formatRoute({ view: 'policies', annotations: parseRoute('').annotations, open: 'p 1' })).toBe('#/policies?open=p%201');
  expect(parseRoute('#/policies?open=p%201')).toMatchObject({ view: 'policies', open: 'p 1' });
  expect(parseRoute('#/rules').open).toBeUndefined();
  const nav = new NavigationState('#/test-reports?open=t1');
  expect(nav.record).toBe('t1');
  nav.go('policies');
  expect(nav.hash).toBe('#/policies');
});

test('a view reports its open record (the entry is replaced); a recent record opens in its view as a new entry', () => {
  const nav = new NavigationState('#/policies');
  nav.showRecord('policies', 'p1');
  expect(nav.historyMode).toBe('replace');
  expect(nav.hash).toBe('#/policies?open=p1');
  // A view no longer shown does not write the address.
  nav.showRecord('artifacts', 'x1');
  expect(nav.hash).toBe('#/policies?open=p1');

  const before = nav.arrivals;
  nav.openRecord({ kind: 'test-report', id: 't1' });
  expect(nav.historyMode).toBe('push');
  expect(nav.hash).toBe('#/test-reports?open=t1');
  expect(nav.arrivals).toBe(before + 1);

  // An annotation opens beside the list as it is listed.
  nav.openAnnotations({ filter: 'name == "x"', sort: { field: 'name', desc: false } });
  nav.go('rules');
  nav.openRecord({ kind: 'annotation', id: 'a9' });
  expect(nav.view).toBe('annotations');
  expect(nav.annotations).toMatchObject({ filter: 'name == "x"', open: 'a9' });
  expect(nav.record).toBeUndefined();
});
