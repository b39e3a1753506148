import { describe, expect, test } from 'vitest';
import type { MetadataValue } from '../../../../src-shared/api/metadata';
import { andClause, metadataClause } from './metadataFilter';

const value = (name: string, type: MetadataValue['key']['type'], v: Partial<MetadataValue>): MetadataValue => ({
  key: { name, type, archivedDate: null, isArchived: false, filterFieldType: 'FILTER_FIELD_TYPE_UNSPECIFIED' },
  archivedDate: null,
  isArchived: false,
  ...v,
});

describe('filter by a metadata value', () => {
  test('each type as its CEL literal; strings quoted and escaped; no clause for a relation', () => {
    expect(metadataClause(value('station', 'METADATA_KEY_TYPE_STRING', { stringValue: 'pad "39A"' }))).toBe(
      'metadata["station"] == "pad \\"39A\\""',
    );
    expect(metadataClause(value('severity', 'METADATA_KEY_TYPE_NUMBER', { numberValue: 2.5 }))).toBe('metadata["severity"] == 2.5');
    expect(metadataClause(value('confirmed', 'METADATA_KEY_TYPE_BOOLEAN', { booleanValue: false }))).toBe('metadata["confirmed"] == false');
    expect(metadataClause(value('folder', 'METADATA_KEY_TYPE_RELATION', { relationValue: { resourceType: 'f', resourceId: '1' } }))).toBe(
      undefined,
    );
  });

  test('joins the applied filter; an || filter is parenthesized; a clause already last is not added twice', () => {
    const c = 'metadata["k"] == 1';
    expect(andClause('', c)).toBe(c);
    expect(andClause('state == ANNOTATION_STATE_OPEN', c)).toBe(`state == ANNOTATION_STATE_OPEN && ${c}`);
    expect(andClause('a == 1 || b == 2', c)).toBe(`(a == 1 || b == 2) && ${c}`);
    expect(andClause(`x == 1 && ${c}`, c)).toBe(`x == 1 && ${c}`);
  });
});
