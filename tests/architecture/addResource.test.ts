// docs/ARCHITECTURE.md's walk-through stays true: adding a replicated resource
// with a reference to annotations is its folder, its store and one line in the
// list of descriptors, and the result compiles and loads.
import { expect, test } from 'vitest';
import { addThrowawayResource } from './addResource';

test('the walk-through adds a resource that refers to annotations: its store, its folder and the catalog line, nothing else', () => {
  const added = addThrowawayResource();
  expect(added.typeErrors).toEqual([]);
  expect(added.catalog).toBe('widget: widgets.annotation_id -> annotation');
  expect(added.changed).toEqual([
    'src-main/services/widgets/widgetStore.ts',
    'src-main/sync/resources/index.ts',
    'src-main/sync/resources/widgets/descriptor.ts',
  ]);
}, 300_000);
