// Stored annotation rows -> wire Annotations (batch-loading child tables).
import { AnnotationState, AnnotationType, type Annotation, type AnnotationStateName, type LinkedChannel } from '../../../src-shared/api/annotations';
import { MetadataKeyType, metadataRowToWire, type MetadataKeyTypeName, type MetadataValue } from '../../../src-shared/api/metadata';
import { formatOptionalTimestamp, formatTimestamp } from '../../../src-shared/api/time';
import type { Db } from '../../db/database';
import { childValues, rowsByPks } from './annotationPageQueries';

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

const channelOf = (kind: number, channelId: string | null, bitFieldName: string | null, calculatedChannelVersionId: string | null): LinkedChannel =>
  kind === LINKED_CHANNEL_KIND.channel ? { channel: { channelId: channelId ?? '' } }
  : kind === LINKED_CHANNEL_KIND.bitFieldElement ? { bitFieldElement: { channelId: channelId ?? '', bitFieldName: bitFieldName ?? '' } }
  : { calculatedChannel: { calculatedChannelVersionId: calculatedChannelVersionId ?? '' } };

type Assignee = Annotation['assignedToUser'];
const assigneeKey = (userId: string, organizationId: string) => `${userId}\u0000${organizationId}`;
const assigneeOf = (f: { id: string; user_name: string; org_id: string; org_name: string }): Assignee => ({
  userId: f.id,
  userName: f.user_name,
  organizations: [{ organizationId: f.org_id, organizationName: f.org_name }],
});

/** The assigned users of a page in one query (`assignedToUser` carries the annotation's organization). */
function loadAssignees(db: Db, rows: readonly AnnotationRow[]): Map<string, Assignee> {
  const pairs = [...new Set(rows.filter((r) => r.assigned_to_user_id).map((r) => assigneeKey(r.assigned_to_user_id, r.organization_id)))];
  const out = new Map<string, Assignee>();
  if (pairs.length === 0) return out;
  const found = db.all<{ id: string; user_name: string; org_id: string; org_name: string }>(
    `SELECT u.id, u.user_name, o.id AS org_id, o.name AS org_name
       FROM json_each(?) p
       JOIN users u ON u.id = json_extract(p.value, '$[0]')
       JOIN organizations o ON o.id = json_extract(p.value, '$[1]')`,
    [JSON.stringify(pairs.map((p) => p.split('\u0000')))],
  );
  for (const f of found) out.set(assigneeKey(f.id, f.org_id), assigneeOf(f));
  return out;
}

interface Children {
  tags: Map<number, string[]>;
  assets: Map<number, string[]>;
  metadata: Map<number, MetadataValue[]>;
  channels: Map<number, LinkedChannel[]>;
  assignees: Map<string, Assignee>;
}

function loadChildren(db: Db, rows: readonly AnnotationRow[]): Children {
  const pks = rows.map((r) => r.pk);
  return {
    tags: childValues(db, 'tags', pks, (r) => r[1] as string),
    assets: childValues(db, 'assets', pks, (r) => r[1] as string),
    metadata: childValues(db, 'metadata', pks, (r) =>
      metadataRowToWire({ key: r[1], type: metadataTypeByNumber.get(r[2]) ?? 'METADATA_KEY_TYPE_UNSPECIFIED', stringValue: r[3], numberValue: r[4], booleanValue: r[5] }),
    ),
    channels: childValues(db, 'channels', pks, (r) => channelOf(r[1], r[2], r[3], r[4])),
    assignees: loadAssignees(db, rows),
  };
}

const metadataTypeByNumber = new Map<number, MetadataKeyTypeName>(MetadataKeyType.names.map((n) => [MetadataKeyType.numbers[n], n]));

/**
 * One record's children with plain `= ?` lookups: every write returns the record it changed, and the
 * page loaders' `IN (SELECT value FROM json_each(?))` plus the sort cost more than the lookups themselves there.
 */
function loadChildrenOfOne(db: Db, r: AnnotationRow): Children {
  const one = <T>(v: T) => new Map<number, T>([[r.pk, v]]);
  const list = (table: string, column: string) =>
    db.all<{ v: string }>(`SELECT ${column} AS v FROM ${table} WHERE annotation_pk = ? ORDER BY position`, [r.pk]).map((x) => x.v);
  const metadata = db
    .all<{ key: string; type: number; string_value: string | null; number_value: number | null; boolean_value: number | null }>(
      'SELECT key, type, string_value, number_value, boolean_value FROM annotation_metadata WHERE annotation_pk = ? ORDER BY position',
      [r.pk],
    )
    .map((m) =>
      metadataRowToWire({ key: m.key, type: metadataTypeByNumber.get(m.type) ?? 'METADATA_KEY_TYPE_UNSPECIFIED', stringValue: m.string_value, numberValue: m.number_value, booleanValue: m.boolean_value }),
    );
  const channels = one(
    db
      .all<{ kind: number; channel_id: string | null; bit_field_name: string | null; calculated_channel_version_id: string | null }>(
        'SELECT kind, channel_id, bit_field_name, calculated_channel_version_id FROM annotation_linked_channels WHERE annotation_pk = ? ORDER BY position',
        [r.pk],
      )
      .map((c) => channelOf(c.kind, c.channel_id, c.bit_field_name, c.calculated_channel_version_id)),
  );
  const assignees = new Map<string, Assignee>();
  if (r.assigned_to_user_id) {
    const f = db.get<{ id: string; user_name: string; org_id: string; org_name: string }>(
      'SELECT u.id, u.user_name, o.id AS org_id, o.name AS org_name FROM users u, organizations o WHERE u.id = ? AND o.id = ?',
      [r.assigned_to_user_id, r.organization_id],
    );
    if (f) assignees.set(assigneeKey(f.id, f.org_id), assigneeOf(f));
  }
  return { tags: one(list('annotation_tags', 'tag_name')), assets: one(list('annotation_assets', 'asset_id')), metadata: one(metadata), channels, assignees };
}

export function toWire(rows: readonly AnnotationRow[], db: Db): Annotation[] {
  const { tags, assets, metadata, channels, assignees } = rows.length === 1 ? loadChildrenOfOne(db, rows[0]) : loadChildren(db, rows);
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
      assignedToUser: r.assigned_to_user_id ? (assignees.get(assigneeKey(r.assigned_to_user_id, r.organization_id)) ?? null) : null,
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
  if (pks.length === 1) {
    const row = db.get<AnnotationRow>('SELECT * FROM annotations WHERE pk = ?', [pks[0]]);
    return row ? toWire([row], db) : [];
  }
  return toWire(rowsByPks(db, pks), db);
}
