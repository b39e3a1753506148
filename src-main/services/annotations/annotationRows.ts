// Stored annotation rows -> wire Annotations (batch-loading child tables).
import {
  AnnotationState,
  AnnotationType,
  type Annotation,
  type AnnotationStateName,
  type LinkedChannel,
} from '../../../src-shared/api/annotations';
import { MetadataKeyType, metadataRowToWire, type MetadataKeyTypeName, type MetadataValue } from '../../../src-shared/api/metadata';
import { formatOptionalTimestamp, formatTimestamp } from '../../../src-shared/api/time';
import type { Db } from '../../db/database';
import { ANNOTATION_COLUMN, childCursor, keptRowOfId, pageRows, ROW_COLUMNS, type Raw } from './annotationPageQueries';

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

/** The row of the annotation with this id as a batch keeps it (annotationPageQueries.ts batchPageRows), if it does. */
export function keptAnnotationRow(db: Db, id: string): AnnotationRow | undefined {
  const raw = keptRowOfId(db, id);
  if (!raw) return undefined;
  const row: Record<string, unknown> = {};
  for (let i = 0; i < ROW_COLUMNS.length; i++) row[ROW_COLUMNS[i]] = raw[i];
  return row as unknown as AnnotationRow;
}

const stateByNumber = new Map(AnnotationState.names.map((n) => [AnnotationState.numbers[n], n]));
const typeByNumber = new Map(AnnotationType.names.map((n) => [AnnotationType.numbers[n], n]));

export const stateName = (n: number | null): AnnotationStateName | undefined => (n === null ? undefined : stateByNumber.get(n));

// Linked-channel kind numbers are the oneof member numbers of AnnotationLinkedChannel.
export const LINKED_CHANNEL_KIND = { channel: 1, bitFieldElement: 2, calculatedChannel: 3 } as const;

const channelOf = (
  kind: number,
  channelId: string | null,
  bitFieldName: string | null,
  calculatedChannelVersionId: string | null,
): LinkedChannel =>
  kind === LINKED_CHANNEL_KIND.channel
    ? { channel: { channelId: channelId ?? '' } }
    : kind === LINKED_CHANNEL_KIND.bitFieldElement
      ? { bitFieldElement: { channelId: channelId ?? '', bitFieldName: bitFieldName ?? '' } }
      : { calculatedChannel: { calculatedChannelVersionId: calculatedChannelVersionId ?? '' } };

type Assignee = Annotation['assignedToUser'];
const assigneeKey = (userId: string, organizationId: string) => `${userId}\u0000${organizationId}`;
const assigneeOf = (f: { id: string; user_name: string; org_id: string; org_name: string }): Assignee => ({
  userId: f.id,
  userName: f.user_name,
  organizations: [{ organizationId: f.org_id, organizationName: f.org_name }],
});

const C = ANNOTATION_COLUMN;

const KEPT_ASSIGNEES = {};

/** The assigned users of a page in one query (`assignedToUser` carries the annotation's organization). */
function loadAssignees(db: Db, rows: readonly Raw[]): Map<string, Assignee> {
  const pairs = new Map<string, [string, string]>();
  for (const r of rows) {
    const userId: string = r[C.assigned_to_user_id];
    if (!userId) continue;
    const key = assigneeKey(userId, r[C.organization_id]);
    if (!pairs.has(key)) pairs.set(key, [userId, r[C.organization_id]]);
  }
  const out = new Map<string, Assignee>();
  if (pairs.size === 0) return out;
  if (pairs.size === 1) {
    // One record (every write returns the record it changed): a plain lookup costs less than json_each. A batch's
    // items (which write annotations, not users) look each assignee up once.
    const [[key, [userId, organizationId]]] = pairs.entries();
    const kept = db.joinedValue(KEPT_ASSIGNEES, () => new Map<string, Assignee | undefined>());
    if (kept?.has(key)) {
      const assignee = kept.get(key);
      if (assignee) out.set(key, assignee);
      return out;
    }
    const f = db.get<{ id: string; user_name: string; org_id: string; org_name: string }>(
      'SELECT u.id, u.user_name, o.id AS org_id, o.name AS org_name FROM users u, organizations o WHERE u.id = ? AND o.id = ?',
      [userId, organizationId],
    );
    const assignee = f && assigneeOf(f);
    kept?.set(key, assignee);
    if (assignee) out.set(key, assignee);
    return out;
  }
  const found = db.all<{ id: string; user_name: string; org_id: string; org_name: string }>(
    `SELECT u.id, u.user_name, o.id AS org_id, o.name AS org_name
       FROM json_each(?) p
       JOIN users u ON u.id = json_extract(p.value, '$[0]')
       JOIN organizations o ON o.id = json_extract(p.value, '$[1]')`,
    [JSON.stringify([...pairs.values()])],
  );
  for (const f of found) out.set(assigneeKey(f.id, f.org_id), assigneeOf(f));
  return out;
}

const metadataTypeByNumber = new Map<number, MetadataKeyTypeName>(MetadataKeyType.names.map((n) => [MetadataKeyType.numbers[n], n]));

// Child rows are [annotation_pk, position, ...values] (annotationPageQueries.ts).
const listValueOf = (r: Raw): string => r[2];
// Metadata rows carry only the value column their type reads (annotationPageQueries.ts), which metadataRowToWire takes from the matching field.
const metadataOf = (r: Raw): MetadataValue =>
  metadataRowToWire({
    key: r[2],
    type: metadataTypeByNumber.get(r[3]) ?? 'METADATA_KEY_TYPE_UNSPECIFIED',
    stringValue: r[4],
    numberValue: r[4],
    booleanValue: r[4],
    archivedDate: r[5],
    keyArchivedDate: r[6],
    keyFilterFieldType: r[7],
  });
const linkedChannelOf = (r: Raw): LinkedChannel => channelOf(r[2], r[3], r[4], r[5]);

/** Wire annotations of `pks`, in the order of `pks` (missing pks skipped, repeated pks repeated). */
export function loadAnnotations(db: Db, pks: readonly number[]): Annotation[] {
  const { rows, children } = pageRows(db, pks);
  if (rows.length === 0) return [];
  const assignees = loadAssignees(db, rows);
  const tags = childCursor(children.tags, listValueOf);
  const assets = childCursor(children.assets, listValueOf);
  const metadata = childCursor(children.metadata, metadataOf);
  const channels = childCursor(children.channels, linkedChannelOf);
  // Rows (and child rows) come by ascending pk; the wire objects are built in that order, then put in the order of `pks`.
  const byPk = new Map<number, Annotation>();
  for (const r of rows) {
    const pk: number = r[C.pk];
    const organizationId: string = r[C.organization_id];
    const assignedToUserId: string = r[C.assigned_to_user_id];
    const archivedDate: number | null = r[C.archived_date];
    const a: Annotation = {
      annotationId: r[C.id],
      name: r[C.name],
      description: r[C.description],
      startTime: formatTimestamp(r[C.start_time]),
      endTime: formatTimestamp(r[C.end_time]),
      createdByUserId: r[C.created_by_user_id],
      modifiedByUserId: r[C.modified_by_user_id],
      createdDate: formatTimestamp(r[C.created_date]),
      modifiedDate: formatTimestamp(r[C.modified_date]),
      organizationId,
      assignedToUserId,
      annotationType: typeByNumber.get(r[C.annotation_type]) ?? 'ANNOTATION_TYPE_UNSPECIFIED',
      tags: tags(pk),
      pending: r[C.pending] === 1,
      assignedToUser: assignedToUserId ? (assignees.get(assigneeKey(assignedToUserId, organizationId)) ?? null) : null,
      // The platform has one concept for delete and archive: an archived annotation's delete date is its archive date.
      deletedDate: formatOptionalTimestamp(archivedDate),
      linkedChannels: channels(pk),
      assetIds: assets(pk),
      metadata: metadata(pk),
      archivedDate: formatOptionalTimestamp(archivedDate),
      isArchived: archivedDate !== null,
      batchedTriggers: r[C.batched_triggers],
      isNoisyRule: r[C.is_noisy_rule] === 1,
    };
    // proto3 `optional` fields are omitted when unset (reference §1.4).
    if (r[C.run_id] !== null) a.runId = r[C.run_id];
    const state = stateName(r[C.state]);
    if (state !== undefined) a.state = state;
    if (r[C.legend_config] !== null) a.legendConfig = r[C.legend_config];
    if (r[C.created_by_condition_id] !== null) a.createdByConditionId = r[C.created_by_condition_id];
    if (r[C.created_by_rule_condition_version_id] !== null) a.createdByRuleConditionVersionId = r[C.created_by_rule_condition_version_id];
    if (r[C.report_rule_version_id] !== null) a.reportRuleVersionId = r[C.report_rule_version_id];
    byPk.set(pk, a);
  }
  const out: Annotation[] = [];
  for (const pk of pks) {
    const a = byPk.get(pk);
    if (a) out.push(a);
  }
  return out;
}
