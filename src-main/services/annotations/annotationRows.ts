// Stored annotation rows -> wire Annotations (batch-loading child tables).
import { AnnotationState, AnnotationType, type Annotation, type AnnotationStateName, type LinkedChannel } from '../../../src-shared/api/annotations';
import { formatOptionalTimestamp, formatTimestamp } from '../../../src-shared/api/time';
import { loadByPks, loadLists, loadMetadata } from '../../db/childRows';
import type { Db } from '../../db/database';

export interface AnnotationRow {
  pk: number;
  id: string;
  organization_id: string;
  name: string;
  description: string;
  start_time: number;
  end_time: number;
  created_by_user_id: string;
  modified_by_user_id: string;
  created_date: number;
  modified_date: number;
  run_id: string | null;
  state: number | null;
  assigned_to_user_id: string;
  annotation_type: number;
  legend_config: string | null;
  created_by_condition_id: string | null;
  created_by_rule_condition_version_id: string | null;
  report_rule_version_id: string | null;
  pending: number;
  deleted_date: number | null;
  archived_date: number | null;
  batched_triggers: number;
  is_noisy_rule: number;
}

const stateByNumber = new Map(AnnotationState.names.map((n) => [AnnotationState.numbers[n], n]));
const typeByNumber = new Map(AnnotationType.names.map((n) => [AnnotationType.numbers[n], n]));

export const stateName = (n: number | null): AnnotationStateName | undefined => (n === null ? undefined : stateByNumber.get(n));

// Linked-channel kind numbers are the oneof member numbers of AnnotationLinkedChannel.
export const LINKED_CHANNEL_KIND = { channel: 1, bitFieldElement: 2, calculatedChannel: 3 } as const;

function loadLinkedChannels(db: Db, pks: readonly number[]): Map<number, LinkedChannel[]> {
  const out = new Map<number, LinkedChannel[]>();
  const rows = db.all<{ pk: number; kind: number; channel_id: string | null; bit_field_name: string | null; calculated_channel_version_id: string | null }>(
    'SELECT annotation_pk AS pk, kind, channel_id, bit_field_name, calculated_channel_version_id FROM annotation_linked_channels WHERE annotation_pk IN (SELECT value FROM json_each(?)) ORDER BY annotation_pk, position',
    [JSON.stringify(pks)],
  );
  for (const r of rows) {
    let list = out.get(r.pk);
    if (!list) out.set(r.pk, (list = []));
    if (r.kind === LINKED_CHANNEL_KIND.channel) list.push({ channel: { channelId: r.channel_id ?? '' } });
    else if (r.kind === LINKED_CHANNEL_KIND.bitFieldElement) list.push({ bitFieldElement: { channelId: r.channel_id ?? '', bitFieldName: r.bit_field_name ?? '' } });
    else list.push({ calculatedChannel: { calculatedChannelVersionId: r.calculated_channel_version_id ?? '' } });
  }
  return out;
}

/** The assigned users of a page in one query (`assignedToUser` carries the annotation's organization). */
function loadAssignees(db: Db, rows: readonly AnnotationRow[]): Map<string, Annotation['assignedToUser']> {
  const pairs = [...new Set(rows.filter((r) => r.assigned_to_user_id).map((r) => `${r.assigned_to_user_id}\u0000${r.organization_id}`))];
  const out = new Map<string, Annotation['assignedToUser']>();
  if (pairs.length === 0) return out;
  const found = db.all<{ id: string; user_name: string; org_id: string; org_name: string }>(
    `SELECT u.id, u.user_name, o.id AS org_id, o.name AS org_name
       FROM json_each(?) p
       JOIN users u ON u.id = json_extract(p.value, '$[0]')
       JOIN organizations o ON o.id = json_extract(p.value, '$[1]')`,
    [JSON.stringify(pairs.map((p) => p.split('\u0000')))],
  );
  for (const f of found) out.set(`${f.id}\u0000${f.org_id}`, { userId: f.id, userName: f.user_name, organizations: [{ organizationId: f.org_id, organizationName: f.org_name }] });
  return out;
}

export function toWire(rows: readonly AnnotationRow[], db: Db): Annotation[] {
  const pks = rows.map((r) => r.pk);
  const tags = loadLists(db, 'annotation_tags', 'annotation_pk', 'tag_name', pks);
  const assets = loadLists(db, 'annotation_assets', 'annotation_pk', 'asset_id', pks);
  const metadata = loadMetadata(db, 'annotation_metadata', 'annotation_pk', pks);
  const channels = loadLinkedChannels(db, pks);
  const assignees = loadAssignees(db, rows);
  return rows.map((r) => {
    const a: Annotation = {
      annotationId: r.id,
      name: r.name,
      description: r.description,
      startTime: formatTimestamp(r.start_time),
      endTime: formatTimestamp(r.end_time),
      createdByUserId: r.created_by_user_id,
      modifiedByUserId: r.modified_by_user_id,
      createdDate: formatTimestamp(r.created_date),
      modifiedDate: formatTimestamp(r.modified_date),
      organizationId: r.organization_id,
      assignedToUserId: r.assigned_to_user_id,
      annotationType: typeByNumber.get(r.annotation_type) ?? 'ANNOTATION_TYPE_UNSPECIFIED',
      tags: tags.get(r.pk) ?? [],
      pending: r.pending === 1,
      assignedToUser: r.assigned_to_user_id ? (assignees.get(`${r.assigned_to_user_id}\u0000${r.organization_id}`) ?? null) : null,
      deletedDate: formatOptionalTimestamp(r.deleted_date),
      linkedChannels: channels.get(r.pk) ?? [],
      assetIds: assets.get(r.pk) ?? [],
      metadata: metadata.get(r.pk) ?? [],
      archivedDate: formatOptionalTimestamp(r.archived_date),
      isArchived: r.archived_date !== null,
      batchedTriggers: r.batched_triggers,
      isNoisyRule: r.is_noisy_rule === 1,
    };
    // proto3 `optional` fields are omitted when unset (reference §1.4).
    if (r.run_id !== null) a.runId = r.run_id;
    const state = stateName(r.state);
    if (state !== undefined) a.state = state;
    if (r.legend_config !== null) a.legendConfig = r.legend_config;
    if (r.created_by_condition_id !== null) a.createdByConditionId = r.created_by_condition_id;
    if (r.created_by_rule_condition_version_id !== null) a.createdByRuleConditionVersionId = r.created_by_rule_condition_version_id;
    if (r.report_rule_version_id !== null) a.reportRuleVersionId = r.report_rule_version_id;
    return a;
  });
}

export function loadAnnotations(db: Db, pks: readonly number[]): Annotation[] {
  return toWire(loadByPks<AnnotationRow>(db, 'annotations', pks), db);
}
