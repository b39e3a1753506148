import { describe, expect, test } from 'vitest';
import { UpdateAnnotationRequest } from '../../../../src-shared/api/annotations';
import type { MetadataValue } from '../../../../src-shared/api/metadata';
import { annotationFactory } from '../testing/factories';
import { checkDraft, draftOf, editUpdateOf } from './annotationEdit';

const key = (name: string, type: MetadataValue['key']['type']) => ({
  name,
  type,
  archivedDate: null,
  isArchived: false,
  filterFieldType: 'FILTER_FIELD_TYPE_STRING' as const,
});
const meta = (name: string, value: Partial<MetadataValue>, type: MetadataValue['key']['type']): MetadataValue => ({
  key: key(name, type),
  archivedDate: null,
  isArchived: false,
  ...value,
});

const annotation = annotationFactory.build({
  name: 'Chamber pressure dip',
  description: 'Seen at T+12 s',
  startTime: '2026-09-01T12:00:00.123456Z',
  endTime: '2026-09-01T12:01:00Z',
  metadata: [
    meta('station', { stringValue: 'A' }, 'METADATA_KEY_TYPE_STRING'),
    meta('severity', { numberValue: 2 }, 'METADATA_KEY_TYPE_NUMBER'),
    meta('confirmed', { booleanValue: true }, 'METADATA_KEY_TYPE_BOOLEAN'),
    meta('folder', { relationValue: { resourceType: 'folder', resourceId: 'f-1' } }, 'METADATA_KEY_TYPE_RELATION'),
  ],
});

describe('editing an annotation', () => {
  test('an unchanged draft sends nothing', () => {
    expect(editUpdateOf(annotation, draftOf(annotation))).toBeUndefined();
    // The same instant written otherwise is no change either.
    expect(editUpdateOf(annotation, { ...draftOf(annotation), endTime: '2026-09-01T13:01:00+01:00' })).toBeUndefined();
  });

  test('the mask names exactly the fields that changed, and the contract accepts the request', () => {
    const d = draftOf(annotation);
    d.name = ' Chamber pressure dip (confirmed) ';
    d.endTime = '2026-09-01T12:02:00Z';
    const update = editUpdateOf(annotation, d)!;
    expect(update).toEqual({
      annotation: { annotationId: annotation.annotationId, name: 'Chamber pressure dip (confirmed)', endTime: '2026-09-01T12:02:00Z' },
      updateMask: 'name,end_time',
    });
    expect(UpdateAnnotationRequest.parse(update).updateMask).toEqual(['name', 'end_time']);
  });

  test('metadata is sent whole, typed, the relation kept as it was', () => {
    const d = draftOf(annotation);
    d.metadata[1].value = '3.5';
    d.metadata.push({ key: 'rig', type: 'METADATA_KEY_TYPE_STRING', value: 'B' });
    const update = editUpdateOf(annotation, d)!;
    expect(update.updateMask).toBe('metadata');
    expect(update.annotation.metadata).toEqual([
      { key: { name: 'station', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'A' },
      { key: { name: 'severity', type: 'METADATA_KEY_TYPE_NUMBER' }, numberValue: 3.5 },
      { key: { name: 'confirmed', type: 'METADATA_KEY_TYPE_BOOLEAN' }, booleanValue: true },
      { key: { name: 'folder', type: 'METADATA_KEY_TYPE_RELATION' }, relationValue: { resourceType: 'folder', resourceId: 'f-1' } },
      { key: { name: 'rig', type: 'METADATA_KEY_TYPE_STRING' }, stringValue: 'B' },
    ]);
    expect(() => UpdateAnnotationRequest.parse(update)).not.toThrow();
    // Every entry removed clears the metadata.
    expect(editUpdateOf(annotation, { ...draftOf(annotation), metadata: [] })).toEqual({
      annotation: { annotationId: annotation.annotationId, metadata: [] },
      updateMask: 'metadata',
    });
  });

  test('problems are found before sending, in words, by field', () => {
    const d = draftOf(annotation);
    d.name = '  ';
    d.startTime = '2026-09-01 noon';
    d.metadata[1].value = 'three';
    d.metadata[2].value = 'maybe';
    d.metadata.push(
      { key: 'station', type: 'METADATA_KEY_TYPE_STRING', value: 'B' },
      { key: '', type: 'METADATA_KEY_TYPE_STRING', value: 'x' },
    );
    expect(checkDraft(d)).toEqual([
      { field: 'name', message: 'The name must not be empty.' },
      {
        field: 'start_time',
        message: 'The start is not a date and time: write it as 2026-03-01T14:05:00Z (UTC) or with an offset, 2026-03-01T15:05:00+01:00.',
      },
      { field: 'metadata.1.value', message: "The value of 'severity' must be a number, such as 42 or 3.5." },
      { field: 'metadata.2.value', message: "The value of 'confirmed' must be yes or no." },
      { field: 'metadata.4.key', message: "The key 'station' is given more than once." },
      { field: 'metadata.5.key', message: 'Each metadata entry needs a key.' },
    ]);
    expect(checkDraft({ ...draftOf(annotation), endTime: '2026-09-01T11:00:00Z' })).toEqual([
      { field: 'end_time', message: 'The end must not be before the start.' },
    ]);
    expect(checkDraft(draftOf(annotation))).toEqual([]);
  });
});
