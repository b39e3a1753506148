import { expect, test } from 'vitest';
import { hasOperations, missingOperations } from './capabilities';

test('operations of the contract are present, others are reported missing', () => {
  expect(hasOperations('ListAnnotations', 'UpdateAnnotation', 'ListAnnotationLogs', 'CreateAnnotationLog')).toBe(true);
  expect(hasOperations('ListAnnotations', 'NoSuchOperation')).toBe(false);
  expect(missingOperations('ListAnnotations', 'NoSuchOperation', 'toString')).toEqual(['NoSuchOperation', 'toString']);
});
