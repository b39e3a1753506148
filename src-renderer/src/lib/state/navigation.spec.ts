import { expect, test } from 'vitest';
import { hashOf, NavigationState, viewFromHash } from './navigation.svelte';

test('views round-trip through the fragment; anything else is the annotations view', () => {
  expect(viewFromHash(hashOf('policies'))).toBe('policies');
  expect(viewFromHash('#/test-reports')).toBe('test-reports');
  expect(viewFromHash('#/sync')).toBe('sync');
  expect(viewFromHash('')).toBe('annotations');
  expect(viewFromHash('#/nope')).toBe('annotations');
  const nav = new NavigationState('#/artifacts');
  expect(nav.view).toBe('artifacts');
  nav.go('saved-searches');
  expect(nav.view).toBe('saved-searches');
});

test('openAnnotations hands a query to the annotations view once', () => {
  const nav = new NavigationState('#/saved-searches');
  nav.openAnnotations({ filter: 'name == "x"', sort: { field: 'name', desc: false } });
  expect(nav.view).toBe('annotations');
  expect(nav.takeAnnotationQuery()).toEqual({ filter: 'name == "x"', sort: { field: 'name', desc: false } });
  expect(nav.takeAnnotationQuery()).toBeUndefined();
});

test('an annotation to open goes with the query, once; a saved search opens none', () => {
  const nav = new NavigationState('#/sync');
  nav.openAnnotations({ filter: "annotation_id == 'a1'", sort: { field: 'created_date', desc: true } }, 'a1');
  expect(nav.takeAnnotationToOpen()).toBe('a1');
  expect(nav.takeAnnotationToOpen()).toBeUndefined();
  nav.openAnnotations({ filter: '', sort: { field: 'name', desc: false } });
  expect(nav.takeAnnotationToOpen()).toBeUndefined();
});
