// Correcting an annotation after it is made: the detail's editor holds a draft
// of its name, description, times and metadata; this module checks the draft
// in words before anything is sent and turns it into one UpdateAnnotation
// request whose mask names exactly the fields that changed.
import type { MetadataKeyTypeName, MetadataValue } from '../../../../src-shared/api/metadata';
import { parseTimestamp } from '../../../../src-shared/api/time';
import type { Annotation } from './annotationService';

/** The metadata key types a person can type a value for (a relation value is kept as it is, not edited). */
export const METADATA_KINDS = [
  { type: 'METADATA_KEY_TYPE_STRING', label: 'Text' },
  { type: 'METADATA_KEY_TYPE_NUMBER', label: 'Number' },
  { type: 'METADATA_KEY_TYPE_BOOLEAN', label: 'Yes/no' },
] as const;
export type MetadataKind = (typeof METADATA_KINDS)[number]['type'];

/** One metadata entry as UpdateAnnotation's request takes it (sift.metadata.v1.MetadataValue). */
export interface MetadataInput {
  key: { name: string; type: MetadataKeyTypeName };
  stringValue?: string;
  numberValue?: number;
  booleanValue?: boolean;
  relationValue?: { resourceType: string; resourceId: string };
}

/** The UpdateAnnotation request of an edit. */
export interface AnnotationEdit {
  annotation: {
    annotationId: string;
    name?: string;
    description?: string;
    startTime?: string;
    endTime?: string;
    metadata?: MetadataInput[];
  };
  updateMask: string;
}

export interface MetadataDraft {
  key: string;
  type: MetadataKind | 'METADATA_KEY_TYPE_RELATION';
  /** The value as typed (`true`/`false` for yes/no); a relation's `type/id`, not editable. */
  value: string;
  /** A relation value, sent back unchanged. */
  readonly relation?: { resourceType: string; resourceId: string };
}

export interface EditDraft {
  name: string;
  description: string;
  startTime: string;
  endTime: string;
  metadata: MetadataDraft[];
}

/** Where a problem is shown: a field of the draft, or one metadata row's key or value. */
export type EditField = 'name' | 'description' | 'start_time' | 'end_time' | `metadata.${number}.key` | `metadata.${number}.value`;

export interface EditProblem {
  readonly field: EditField;
  /** A sentence in words. */
  readonly message: string;
}

/** A metadata value as text: what the detail shows and the editor starts from. */
export function metadataText(m: MetadataValue): string {
  if (m.key.type === 'METADATA_KEY_TYPE_NUMBER') return String(m.numberValue ?? 0);
  if (m.key.type === 'METADATA_KEY_TYPE_BOOLEAN') return m.booleanValue ? 'true' : 'false';
  if (m.key.type === 'METADATA_KEY_TYPE_RELATION') return `${m.relationValue?.resourceType ?? ''}/${m.relationValue?.resourceId ?? ''}`;
  return m.stringValue ?? '';
}

function metadataDraftOf(m: MetadataValue): MetadataDraft {
  if (m.key.type === 'METADATA_KEY_TYPE_RELATION' && m.relationValue)
    return { key: m.key.name, type: 'METADATA_KEY_TYPE_RELATION', value: metadataText(m), relation: { ...m.relationValue } };
  const type =
    m.key.type === 'METADATA_KEY_TYPE_NUMBER' || m.key.type === 'METADATA_KEY_TYPE_BOOLEAN' ? m.key.type : 'METADATA_KEY_TYPE_STRING';
  return { key: m.key.name, type, value: metadataText(m) };
}

export function draftOf(a: Annotation): EditDraft {
  return {
    name: a.name,
    description: a.description,
    startTime: a.startTime,
    endTime: a.endTime,
    metadata: a.metadata.map(metadataDraftOf),
  };
}

const WHEN_EXAMPLE = 'write it as 2026-03-01T14:05:00Z (UTC) or with an offset, 2026-03-01T15:05:00+01:00';

/** Every problem of the draft, in words; an empty list when it can be sent. */
export function checkDraft(d: EditDraft): EditProblem[] {
  const problems: EditProblem[] = [];
  if (!d.name.trim()) problems.push({ field: 'name', message: 'The name must not be empty.' });
  const start = parseTimestamp(d.startTime.trim());
  const end = parseTimestamp(d.endTime.trim());
  if (start === null) problems.push({ field: 'start_time', message: `The start is not a date and time: ${WHEN_EXAMPLE}.` });
  if (end === null) problems.push({ field: 'end_time', message: `The end is not a date and time: ${WHEN_EXAMPLE}.` });
  if (start !== null && end !== null && end < start) problems.push({ field: 'end_time', message: 'The end must not be before the start.' });
  const seen = new Set<string>();
  d.metadata.forEach((m, i) => {
    const key = m.key.trim();
    if (!key) problems.push({ field: `metadata.${i}.key`, message: 'Each metadata entry needs a key.' });
    else if (seen.has(key)) problems.push({ field: `metadata.${i}.key`, message: `The key '${key}' is given more than once.` });
    seen.add(key);
    const value = m.value.trim();
    if (m.type === 'METADATA_KEY_TYPE_NUMBER' && (value === '' || !Number.isFinite(Number(value))))
      problems.push({ field: `metadata.${i}.value`, message: `The value of '${key || 'this key'}' must be a number, such as 42 or 3.5.` });
    if (m.type === 'METADATA_KEY_TYPE_BOOLEAN' && value !== 'true' && value !== 'false')
      problems.push({ field: `metadata.${i}.value`, message: `The value of '${key || 'this key'}' must be yes or no.` });
  });
  return problems;
}

/** A draft's metadata as the request carries it (typed keys, as the platform's MetadataValue). */
export function metadataInputOf(rows: readonly MetadataDraft[]): MetadataInput[] {
  return rows.map((m): MetadataInput => {
    const key = m.key.trim();
    const value = m.value.trim();
    switch (m.type) {
      case 'METADATA_KEY_TYPE_NUMBER':
        return { key: { name: key, type: m.type }, numberValue: Number(value) };
      case 'METADATA_KEY_TYPE_BOOLEAN':
        return { key: { name: key, type: m.type }, booleanValue: value === 'true' };
      case 'METADATA_KEY_TYPE_RELATION':
        return { key: { name: key, type: m.type }, relationValue: m.relation ?? { resourceType: '', resourceId: '' } };
      default:
        return { key: { name: key, type: 'METADATA_KEY_TYPE_STRING' }, stringValue: m.value };
    }
  });
}

const sameInstant = (a: string, b: string) => a.trim() === b || parseTimestamp(a.trim()) === parseTimestamp(b);

/**
 * The UpdateAnnotation request for the fields the draft changed (the mask names those only: an edit made
 * meanwhile elsewhere to another field is kept), or undefined when nothing changed.
 */
export function editUpdateOf(a: Annotation, d: EditDraft): AnnotationEdit | undefined {
  const annotation: AnnotationEdit['annotation'] = { annotationId: a.annotationId };
  const mask: string[] = [];
  if (d.name.trim() !== a.name) {
    annotation.name = d.name.trim();
    mask.push('name');
  }
  if (d.description !== a.description) {
    annotation.description = d.description;
    mask.push('description');
  }
  if (!sameInstant(d.startTime, a.startTime)) {
    annotation.startTime = d.startTime.trim();
    mask.push('start_time');
  }
  if (!sameInstant(d.endTime, a.endTime)) {
    annotation.endTime = d.endTime.trim();
    mask.push('end_time');
  }
  const metadata = metadataInputOf(d.metadata);
  if (JSON.stringify(metadata) !== JSON.stringify(metadataInputOf(a.metadata.map(metadataDraftOf)))) {
    annotation.metadata = metadata;
    mask.push('metadata');
  }
  return mask.length ? { annotation, updateMask: mask.join(',') } : undefined;
}
