// The list hot path: wire JSON text of annotations built from SQLite rows,
// with no wire objects in between. Byte for byte what JSON.stringify makes of
// loadAnnotations' objects (annotationRows.ts, the oracle that
// tests/integration/annotationListJson.test.ts compares it with).
//
// Why: at pageSize 1000 the object path spent its server CPU on values
// crossing from SQLite into JavaScript (~55 per annotation: 24 columns plus
// every child row's), on building the objects, then on JSON.stringify walking
// them. Here SQLite writes the JSON of every string, enum, boolean and child
// list itself (json_quote escapes exactly as JSON.stringify does: `"`, `\`,
// \b \t \n \f \r, other controls as lowercase \u00xx), and only what JSON
// text from SQL could get wrong crosses as a value: timestamps (JavaScript
// formats them, and reads micros beyond 2^53 rounded as the object path
// does) and batched_triggers (a number). Metadata SQLite writes only when it
// is exact: integer-valued numbers within 2^53 and no archive dates; any
// other annotation is built by the object path (`loadAnnotations`) itself.
import { AnnotationState, AnnotationType } from '../../../src-shared/api/annotations';
import { FilterFieldType, MetadataKeyType } from '../../../src-shared/api/metadata';
import { formatTimestamp } from '../../../src-shared/api/time';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../../db/database';
import { LINKED_CHANNEL_KIND, loadAnnotations } from './annotationRows';

/** A JSON string literal of a constant, for SQL text: `'"ANNOTATION_TYPE_PHASE"'`. */
const jsonLiteral = (s: string) => `'${JSON.stringify(s).replace(/'/g, "''")}'`;

/** `CASE column WHEN n THEN '"NAME"' ... ELSE fallback END` over an enum's numbers. */
function enumCase(column: string, numbers: Record<string, number>, fallback: string): string {
  return `CASE ${column} ${Object.entries(numbers)
    .map(([name, n]) => `WHEN ${n} THEN ${jsonLiteral(name)}`)
    .join(' ')} ELSE ${fallback} END`;
}

/** `[` + the rows' JSON fragments joined by commas + `]` (an empty list when there are none). */
const jsonList = (fragment: string, table: string, orderBy: string) =>
  `(SELECT '[' || coalesce(group_concat(${fragment}, ',' ORDER BY ${orderBy}), '') || ']' FROM ${table} WHERE annotation_pk = a.pk)`;

// Within one annotation the object path orders child rows by position, ties in primary-key order (annotationPageQueries.ts).
const TAGS = jsonList('json_quote(tag_name)', 'annotation_tags', 'position, tag_name');
const ASSETS = jsonList('json_quote(asset_id)', 'annotation_assets', 'position, asset_id');

const LINKED_CHANNELS = jsonList(
  `CASE kind
     WHEN ${LINKED_CHANNEL_KIND.channel} THEN '{"channel":{"channelId":' || json_quote(coalesce(channel_id, '')) || '}}'
     WHEN ${LINKED_CHANNEL_KIND.bitFieldElement} THEN '{"bitFieldElement":{"channelId":' || json_quote(coalesce(channel_id, '')) || ',"bitFieldName":' || json_quote(coalesce(bit_field_name, '')) || '}}'
     ELSE '{"calculatedChannel":{"calculatedChannelVersionId":' || json_quote(coalesce(calculated_channel_version_id, '')) || '}}'
   END`,
  'annotation_linked_channels',
  'position',
);

const {
  METADATA_KEY_TYPE_STRING: STRING,
  METADATA_KEY_TYPE_NUMBER: NUMBER,
  METADATA_KEY_TYPE_BOOLEAN: BOOLEAN,
  METADATA_KEY_TYPE_RELATION: RELATION,
} = MetadataKeyType.numbers;
const FILTER_TYPE = FilterFieldType.numbers;

/** metadataRowToWire's filter field type: the stored one when known, else the key type's. */
const FILTER_FIELD_TYPE = enumCase(
  'key_filter_field_type',
  FILTER_TYPE,
  `CASE type WHEN ${STRING} THEN '"FILTER_FIELD_TYPE_STRING"' WHEN ${NUMBER} THEN '"FILTER_FIELD_TYPE_DOUBLE"' WHEN ${BOOLEAN} THEN '"FILTER_FIELD_TYPE_BOOL"' WHEN ${RELATION} THEN '"FILTER_FIELD_TYPE_UUID"' ELSE '"FILTER_FIELD_TYPE_UNSPECIFIED"' END`,
);

/** 2^53: integers below it print the same from SQLite and from a JavaScript number. */
const EXACT_INTEGER = 9007199254740992;

/** A number value SQLite prints exactly as JSON.stringify would (an integer-valued number within 2^53), or none. */
const EXACT_NUMBER = `(number_value IS NULL OR (typeof(number_value) IN ('integer', 'real') AND number_value = CAST(number_value AS INTEGER) AND abs(number_value) < ${EXACT_INTEGER}))`;

// metadataRowToWire's value by key type: a number, a boolean, a relation (type/id split at the first '/'), else a string.
const RELATION_TEXT = "coalesce(string_value, '/')";
const METADATA_VALUE = `CASE type
  WHEN ${NUMBER} THEN '"numberValue":' || CAST(CAST(coalesce(number_value, 0) AS INTEGER) AS TEXT)
  WHEN ${BOOLEAN} THEN '"booleanValue":' || CASE WHEN boolean_value = 1 THEN 'true' ELSE 'false' END
  WHEN ${RELATION} THEN '"relationValue":{"resourceType":' || CASE WHEN instr(${RELATION_TEXT}, '/') = 0 THEN json_quote(${RELATION_TEXT}) || ',"resourceId":""'
    ELSE json_quote(substr(${RELATION_TEXT}, 1, instr(${RELATION_TEXT}, '/') - 1)) || ',"resourceId":' || json_quote(substr(${RELATION_TEXT}, instr(${RELATION_TEXT}, '/') + 1)) END || '}'
  ELSE '"stringValue":' || json_quote(coalesce(string_value, ''))
END`;

/** The metadata list when every entry is exact (no archive date, exact numbers), else NULL. */
const METADATA = `(SELECT CASE WHEN count(*) = 0 THEN '[]'
    WHEN max(archived_date IS NOT NULL OR key_archived_date IS NOT NULL OR (type = ${NUMBER} AND NOT ${EXACT_NUMBER})) THEN NULL
    ELSE '[' || group_concat('{"key":{"name":' || json_quote(key) || ',"type":' || ${enumCase('type', MetadataKeyType.numbers, '\'"METADATA_KEY_TYPE_UNSPECIFIED"\'')}
      || ',"archivedDate":null,"isArchived":false,"filterFieldType":' || ${FILTER_FIELD_TYPE} || '},"archivedDate":null,"isArchived":false,'
      || ${METADATA_VALUE} || '}', ',' ORDER BY position, key) || ']'
  END FROM annotation_metadata WHERE annotation_pk = a.pk)`;

/** assignedToUser: the assignee with the annotation's organization, null when unassigned or unknown. */
const ASSIGNED_TO_USER = `CASE WHEN a.assigned_to_user_id = '' THEN 'null' ELSE coalesce((
    SELECT '{"userId":' || json_quote(u.id) || ',"userName":' || json_quote(u.user_name) || ',"organizations":[{"organizationId":' || json_quote(o.id)
      || ',"organizationName":' || json_quote(o.name) || '}]}'
    FROM users u, organizations o WHERE u.id = a.assigned_to_user_id AND o.id = a.organization_id), 'null') END`;

/** A proto3 `optional` string field: omitted when NULL. */
const optionalString = (column: string, field: string) =>
  `CASE WHEN a.${column} IS NULL THEN '' ELSE ',"${field}":' || json_quote(a.${column}) END`;

/**
 * One annotation's JSON in pieces around the values JavaScript formats (see `annotationText`); the field order
 * is the object path's (annotationRows.ts), optional fields last.
 */
const ROW_SELECT = `SELECT a.pk,
  '{"annotationId":' || json_quote(a.id) || ',"name":' || json_quote(a.name) || ',"description":' || json_quote(a.description) || ',"startTime":"',
  a.start_time, a.end_time,
  '","createdByUserId":' || json_quote(a.created_by_user_id) || ',"modifiedByUserId":' || json_quote(a.modified_by_user_id) || ',"createdDate":"',
  a.created_date, a.modified_date,
  '","organizationId":' || json_quote(a.organization_id) || ',"assignedToUserId":' || json_quote(a.assigned_to_user_id)
    || ',"annotationType":' || ${enumCase('a.annotation_type', AnnotationType.numbers, '\'"ANNOTATION_TYPE_UNSPECIFIED"\'')}
    || ',"tags":' || ${TAGS} || ',"pending":' || CASE WHEN a.pending = 1 THEN 'true' ELSE 'false' END
    || ',"assignedToUser":' || ${ASSIGNED_TO_USER} || ',"deletedDate":',
  a.archived_date,
  ',"linkedChannels":' || ${LINKED_CHANNELS} || ',"assetIds":' || ${ASSETS} || ',"metadata":',
  ${METADATA},
  a.batched_triggers,
  ',"isNoisyRule":' || CASE WHEN a.is_noisy_rule = 1 THEN 'true' ELSE 'false' END
    || ${optionalString('run_id', 'runId')}
    || coalesce(',"state":' || ${enumCase('a.state', AnnotationState.numbers, 'NULL')}, '')
    || ${optionalString('legend_config', 'legendConfig')} || ${optionalString('created_by_condition_id', 'createdByConditionId')}
    || ${optionalString('created_by_rule_condition_version_id', 'createdByRuleConditionVersionId')}
    || ${optionalString('report_rule_version_id', 'reportRuleVersionId')} || '}'
FROM annotations a`;

interface JsonStatements {
  readonly many: Statement;
  readonly one: Statement;
}

const statements = new WeakMap<Db, JsonStatements>();

function statementsOf(db: Db): JsonStatements {
  let s = statements.get(db);
  if (!s) {
    s = {
      many: db.raw.prepare(`${ROW_SELECT} WHERE a.pk IN (SELECT value FROM json_each(?))`).raw(true),
      one: db.raw.prepare(`${ROW_SELECT} WHERE a.pk = ?`).raw(true),
    };
    statements.set(db, s);
  }
  return s;
}

const optionalTimestamp = (micros: number | null) => (micros === null ? 'null' : `"${formatTimestamp(micros)}"`);

/** One annotation's JSON from a ROW_SELECT row (timestamps hold only digits and `-:.TZ`, so they need no escaping). */
function annotationText(db: Db, r: unknown[]): string {
  const metadata = r[10] as string | null;
  // Metadata SQLite cannot write exactly: the object path builds the whole annotation.
  if (metadata === null) return JSON.stringify(loadAnnotations(db, [r[0] as number])[0]);
  const archived = optionalTimestamp(r[8] as number | null);
  return (
    `${r[1] as string}${formatTimestamp(r[2] as number)}","endTime":"${formatTimestamp(r[3] as number)}${r[4] as string}${formatTimestamp(r[5] as number)}` +
    `","modifiedDate":"${formatTimestamp(r[6] as number)}${r[7] as string}${archived}${r[9] as string}${metadata},"archivedDate":${archived}` +
    `,"isArchived":${r[8] !== null},"batchedTriggers":${JSON.stringify(r[11])}${r[12] as string}`
  );
}

/**
 * The JSON array text of the annotations of `pks`, in the order of `pks` (missing pks skipped, repeated pks
 * repeated): exactly `JSON.stringify(loadAnnotations(db, pks))`.
 */
export function annotationsJson(db: Db, pks: readonly number[]): string {
  if (pks.length === 0) return '[]';
  const s = statementsOf(db);
  const rows = (pks.length === 1 ? s.one.all(pks[0]) : s.many.all(JSON.stringify(pks))) as unknown[][];
  const byPk = new Map<number, string>();
  for (const r of rows) byPk.set(r[0] as number, annotationText(db, r));
  let out = '';
  for (const pk of pks) {
    const text = byPk.get(pk);
    if (text !== undefined) out += out ? `,${text}` : text;
  }
  return `[${out}]`;
}
