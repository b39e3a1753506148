// The synced fields of an annotation (../../recordShape.ts): what a client
// edits (its update_mask paths: services/annotations/annotationFields.ts) and
// the archive; the server's bookkeeping columns are taken as they are.
import { AnnotationState, AnnotationType, type Annotation } from '../../../../src-shared/api/annotations';
import type { MetadataValue, MetadataValueInput } from '../../../../src-shared/api/metadata';
import { loadAnnotations } from '../../../services/annotations/annotationRows';
import {
  replaceAnnotationLinkedChannels,
  replaceAnnotationMetadata,
  replaceAnnotationTags,
  setAnnotationColumns,
} from '../../../services/annotations/annotationStore';
import type { ANNOTATION_EDITABLE_PATHS } from '../../../services/annotations/annotationFields';
import type { RecordShape } from '../../recordShape';
import { wireMicros as micros } from '../../time';
import { formatTimestamp } from '../../../../src-shared/api/time';

export const ANNOTATION = 'annotation';

/** Metadata key an offline-created annotation carries on the remote: its local id (the idempotency marker). */
export const CLIENT_ID_KEY = 'outpost_client_id';

export type AnnotationField = (typeof ANNOTATION_EDITABLE_PATHS)[number] | 'archived';

/** Metadata without the client marker, archive dates as stored (microseconds; absent = null); the filter field type is derived from the type. */
function normalizeMetadata(list: readonly MetadataValue[]): MetadataValueInput[] {
  return list
    .filter((m) => m.key.name !== CLIENT_ID_KEY)
    .map((m) => {
      const archived = { archivedDate: micros(m.archivedDate ?? '') ?? null, keyArchivedDate: micros(m.key.archivedDate ?? '') ?? null };
      const out = { key: { name: m.key.name, type: m.key.type }, ...archived } as unknown as MetadataValue;
      if (m.stringValue !== undefined) out.stringValue = m.stringValue;
      if (m.numberValue !== undefined) out.numberValue = m.numberValue;
      if (m.booleanValue !== undefined) out.booleanValue = m.booleanValue;
      if (m.relationValue !== undefined)
        out.relationValue = { resourceType: m.relationValue.resourceType, resourceId: m.relationValue.resourceId };
      return out as unknown as MetadataValueInput;
    });
}

const linkedChannels = (a: Annotation) =>
  a.linkedChannels.map((c) =>
    c.channel
      ? { channel: { channelId: c.channel.channelId } }
      : c.bitFieldElement
        ? { bitFieldElement: { channelId: c.bitFieldElement.channelId, bitFieldName: c.bitFieldElement.bitFieldName } }
        : { calculatedChannel: { calculatedChannelVersionId: c.calculatedChannel?.calculatedChannelVersionId ?? '' } },
  );

/** An unset value is left out of the update request. */
const unlessNull = (v: unknown) => (v === null ? undefined : v);
const timeWire = (v: unknown) => formatTimestamp(v as number);

const state = (a: Annotation) => (a.state && a.state !== 'ANNOTATION_STATE_UNSPECIFIED' ? a.state : null);
const stateNumber = (a: Annotation) => {
  const s = state(a);
  return s ? AnnotationState.numbers[s] : null;
};

export const ANNOTATION_SHAPE: RecordShape<Annotation, AnnotationField> = {
  kind: ANNOTATION,
  table: 'annotations',
  load: loadAnnotations,
  setColumns: setAnnotationColumns,
  update: { operation: 'UpdateAnnotation', record: 'annotation', id: 'annotationId' },
  fields: {
    name: { of: (a) => a.name, columns: (a) => ({ name: a.name }) },
    description: { of: (a) => a.description, columns: (a) => ({ description: a.description }) },
    start_time: { of: (a) => micros(a.startTime), columns: (a) => ({ start_time: micros(a.startTime) }), wire: timeWire },
    end_time: { of: (a) => micros(a.endTime), columns: (a) => ({ end_time: micros(a.endTime) }), wire: timeWire },
    assigned_to_user_id: {
      of: (a) => a.assignedToUserId,
      columns: (a) => ({ assigned_to_user_id: a.assignedToUserId }),
      wire: (v) => v ?? '',
    },
    state: { of: state, columns: (a) => ({ state: stateNumber(a) }), wire: unlessNull },
    tags: { of: (a) => [...a.tags], rows: (db, pk, a) => replaceAnnotationTags(db, pk, a.tags) },
    legend_config: {
      of: (a) => a.legendConfig ?? null,
      columns: (a) => ({ legend_config: a.legendConfig ?? null }),
      wire: unlessNull,
    },
    linked_channels: {
      of: linkedChannels,
      rows: (db, pk, a) => replaceAnnotationLinkedChannels(db, pk, linkedChannels(a)),
      wire: (v) => v ?? [],
    },
    metadata: {
      of: (a) => normalizeMetadata(a.metadata),
      rows: (db, pk, a) => replaceAnnotationMetadata(db, pk, normalizeMetadata(a.metadata)),
    },
    archived: {
      of: (a) => a.isArchived,
      paths: ['deleted_date', 'archived_date'],
      setBy: ['ArchiveAnnotation', 'UnarchiveAnnotation'],
      columns: (a) => ({ archived_date: a.isArchived ? (micros(a.archivedDate) ?? Date.now() * 1000) : null }),
    },
  },
  server: (a) => ({
    organization_id: a.organizationId,
    created_by_user_id: a.createdByUserId,
    created_date: micros(a.createdDate),
    run_id: a.runId ?? null,
    annotation_type: AnnotationType.numbers[a.annotationType] ?? 1,
    pending: a.pending ? 1 : 0,
    deleted_date: micros(a.deletedDate),
    batched_triggers: a.batchedTriggers,
    is_noisy_rule: a.isNoisyRule ? 1 : 0,
    report_rule_version_id: a.reportRuleVersionId ?? null,
    created_by_condition_id: a.createdByConditionId ?? null,
    created_by_rule_condition_version_id: a.createdByRuleConditionVersionId ?? null,
    modified_date: micros(a.modifiedDate),
    modified_by_user_id: a.modifiedByUserId,
  }),
};
