// The filter box's completion offers the fields ListAnnotations declares: the
// renderer keeps its own list (it cannot import the engine), and this test
// keeps the two equal, enum values included.
import { expect, test } from 'vitest';
import { annotationListSpec } from '../../src-main/services/annotations/annotationListSpec';
import { ANNOTATION_FILTER_FIELDS } from '../../src-renderer/src/lib/filter/completion';

test('the completion offers exactly the declared annotation filter fields', () => {
  expect(ANNOTATION_FILTER_FIELDS.map((f) => f.name).sort()).toEqual(Object.keys(annotationListSpec.filterFields).sort());
});

test('enum fields offer exactly the declared values', () => {
  for (const f of ANNOTATION_FILTER_FIELDS.filter((f) => f.kind === 'enum')) {
    const declared = annotationListSpec.filterFields[f.name];
    expect(declared.kind).toBe('enum');
    expect([...(f.values ?? [])].sort()).toEqual(Object.keys((declared as { values: Record<string, number> }).values).sort());
  }
});
