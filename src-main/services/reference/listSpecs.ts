// order_by fields, default orders and page sizes of the reference lists
// (reference §1.6), and their CEL filter fields (reference §11), each read
// from the local schema (migrations 0001, 0006, 0017).
import { AnnotationState } from '../../../src-shared/api/annotations';
import { AnnotationLogKind } from '../../../src-shared/api/annotationLogs';
import type { RelatedRows, ScalarField } from '../../filter/fields';
import type { ListSpec } from '../../filter/resource';
import { isArchivedFrom, metadataMap } from '../common/commonFilterFields';

const str = (sql: string): ScalarField => ({ kind: 'scalar', type: 'string', sql });
const time = (sql: string): ScalarField => ({ kind: 'scalar', type: 'timestamp', sql });
const optionalTime = (sql: string): ScalarField => ({ kind: 'scalar', type: 'timestamp', sql, nullable: true });

/**
 * Assets, runs and annotations store tag NAMES; filters on tag_id resolve a
 * name to its tag in the record's own organization (tag names are unique per
 * organization, ids across all).
 */
const TAGS_OF_ASSET: RelatedRows = {
  from: 'asset_tags {at} JOIN assets {a} ON {a}.pk = {at}.asset_pk JOIN tags {tg} ON {tg}.organization_id = {a}.organization_id AND {tg}.name = {at}.tag_name',
  parentKey: 't.pk',
  childKey: '{at}.asset_pk',
};

const RUNS_OF_ASSET: RelatedRows = {
  from: 'run_assets {ra} JOIN runs {r} ON {r}.pk = {ra}.run_pk',
  parentKey: 't.asset_id',
  childKey: '{ra}.asset_id',
};

/**
 * A run's duration in microseconds: stop - start, or start-to-now while the run
 * is going (as Run.duration on the wire); absent without a start_time.
 */
const RUN_DURATION_MICROS =
  "(CASE WHEN t.start_time IS NOT NULL THEN max(0, COALESCE(t.stop_time, CAST(unixepoch('subsec') * 1000000 AS INTEGER)) - t.start_time) END)";

/**
 * Stand-in for NULL in order_by expressions over optional timestamps (must
 * never be NULL): -(2^53 - 1) µs, before any real timestamp and exact in a
 * JSON page token. Unset values sort first ascending, last descending.
 */
export const NULL_TIME = -9007199254740991;

export const assetListSpec: ListSpec = {
  resource: 'assets',
  from: 'assets t',
  tieBreak: 't.pk',
  orderFields: {
    name: { sql: 't.name', type: 'text' },
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
    archived_date: { sql: `COALESCE(t.archived_date, ${NULL_TIME})`, type: 'number' },
  },
  defaultOrder: [{ field: 'created_date', desc: true }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // Filter fields (§11.1).
  filterFields: {
    asset_id: str('t.id'),
    created_by_user_id: str('t.created_by_user_id'),
    modified_by_user_id: str('t.modified_by_user_id'),
    created_date: time('t.created_date'),
    modified_date: time('t.modified_date'),
    name: str('t.name'),
    name_lower: str('lower(t.name)'),
    tag_id: { kind: 'relation', type: 'string', sources: [{ rows: TAGS_OF_ASSET, value: '{tg}.id' }] },
    tag_name: {
      kind: 'relation',
      type: 'string',
      sources: [{ rows: { from: 'asset_tags {at}', parentKey: 't.pk', childKey: '{at}.asset_pk' }, value: '{at}.tag_name' }],
    },
    archived_date: optionalTime('t.archived_date'),
    is_archived: isArchivedFrom('t.archived_date'),
    metadata: metadataMap('asset_metadata', 'asset_pk'),
  },
};

export const runListSpec: ListSpec = {
  resource: 'runs',
  from: 'runs t',
  tieBreak: 't.pk',
  orderFields: {
    name: { sql: 't.name', type: 'text' },
    description: { sql: 't.description', type: 'text' },
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
    start_time: { sql: `COALESCE(t.start_time, ${NULL_TIME})`, type: 'number' },
    stop_time: { sql: `COALESCE(t.stop_time, ${NULL_TIME})`, type: 'number' },
  },
  defaultOrder: [{ field: 'created_date', desc: true }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // Filter fields (§11.2).
  filterFields: {
    run_id: str('t.id'),
    organization_id: str('t.organization_id'),
    asset_id: {
      kind: 'relation',
      type: 'string',
      sources: [{ rows: { from: 'run_assets {ra}', parentKey: 't.pk', childKey: '{ra}.run_pk' }, value: '{ra}.asset_id' }],
    },
    asset_name: {
      kind: 'relation',
      type: 'string',
      sources: [
        {
          rows: { from: 'run_assets {ra} JOIN assets {a} ON {a}.id = {ra}.asset_id', parentKey: 't.pk', childKey: '{ra}.run_pk' },
          value: '{a}.name',
        },
      ],
    },
    // proto3 optional: NULL (omitted on the wire) reads as CEL null.
    client_key: { kind: 'scalar', type: 'string', sql: 't.client_key', nullable: true },
    name: str('t.name'),
    description: str('t.description'),
    created_by_user_id: str('t.created_by_user_id'),
    modified_by_user_id: str('t.modified_by_user_id'),
    created_date: time('t.created_date'),
    modified_date: time('t.modified_date'),
    start_time: optionalTime('t.start_time'),
    stop_time: optionalTime('t.stop_time'),
    tag_id: {
      kind: 'relation',
      type: 'string',
      sources: [
        {
          rows: {
            from: 'run_tags {rt} JOIN runs {r} ON {r}.pk = {rt}.run_pk JOIN tags {tg} ON {tg}.organization_id = {r}.organization_id AND {tg}.name = {rt}.tag_name',
            parentKey: 't.pk',
            childKey: '{rt}.run_pk',
          },
          value: '{tg}.id',
        },
      ],
    },
    // The tags of the run's assets.
    asset_tag_id: {
      kind: 'relation',
      type: 'string',
      sources: [
        {
          rows: {
            from: `run_assets {ra} JOIN assets {a} ON {a}.id = {ra}.asset_id JOIN asset_tags {at} ON {at}.asset_pk = {a}.pk
              JOIN tags {tg} ON {tg}.organization_id = {a}.organization_id AND {tg}.name = {at}.tag_name`,
            parentKey: 't.pk',
            childKey: '{ra}.run_pk',
          },
          value: '{tg}.id',
        },
      ],
    },
    // Elapsed seconds (a double: `duration > 3600`), and the same as a CEL
    // duration (`duration_string > duration('10h')`).
    duration: { kind: 'scalar', type: 'double', sql: `(${RUN_DURATION_MICROS} / 1000000.0)`, nullable: true },
    duration_string: { kind: 'scalar', type: 'duration', sql: RUN_DURATION_MICROS, nullable: true },
    // Comments (annotation log entries of kind COMMENT) on the run's annotations.
    annotation_comments_count: {
      kind: 'scalar',
      type: 'int',
      sql: `(SELECT count(*) FROM annotations an JOIN annotation_logs al ON al.annotation_pk = an.pk
        WHERE an.run_id = t.id AND al.kind = ${AnnotationLogKind.numbers.ANNOTATION_LOG_KIND_COMMENT})`,
    },
    // The states of the run's annotations (annotations without a state are no element).
    annotation_state: {
      kind: 'relation',
      type: 'int',
      enumValues: AnnotationState.numbers,
      sources: [
        {
          rows: {
            from: '(SELECT run_id, state FROM annotations WHERE state IS NOT NULL) {an}',
            parentKey: 't.id',
            childKey: '{an}.run_id',
          },
          value: '{an}.state',
        },
      ],
    },
    archived_date: optionalTime('t.archived_date'),
    is_archived: isArchivedFrom('t.archived_date'),
    metadata: metadataMap('run_metadata', 'run_pk'),
  },
};

export const tagListSpec: ListSpec = {
  resource: 'tags',
  from: 'tags t',
  tieBreak: 't.seq',
  orderFields: {
    created_date: { sql: 't.created_date', type: 'number' },
    name: { sql: 't.name', type: 'text' },
  },
  defaultOrder: [{ field: 'created_date', desc: false }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // Filter fields (§11.3).
  filterFields: {
    tag_id: str('t.id'),
    name: str('t.name'),
  },
};

export const userListSpec: ListSpec = {
  resource: 'users',
  from: 'users t',
  tieBreak: 't.seq',
  orderFields: {
    name: { sql: 't.user_name', type: 'text' },
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
  },
  defaultOrder: [{ field: 'name', desc: false }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // Filter fields (§11.4); `name` is the user name.
  filterFields: {
    user_id: str('t.id'),
    name: str('t.user_name'),
  },
};

export const channelListSpec: ListSpec = {
  resource: 'channels',
  from: 'channels t',
  tieBreak: 't.pk',
  orderFields: {
    name: { sql: 't.name', type: 'text' },
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
    active: { sql: 't.active', type: 'number' },
  },
  defaultOrder: [{ field: 'created_date', desc: false }],
  defaultPageSize: 50,
  maxPageSize: 10_000,
  // Filter fields (§11.5). A channel belongs to an asset; its runs are the
  // runs of that asset (run_assets).
  filterFields: {
    channel_id: str('t.id'),
    asset_id: str('t.asset_id'),
    name: str('t.name'),
    description: str('t.description'),
    run_id: { kind: 'relation', type: 'string', sources: [{ rows: RUNS_OF_ASSET, value: '{r}.id' }] },
    run_name: { kind: 'relation', type: 'string', sources: [{ rows: RUNS_OF_ASSET, value: '{r}.name' }] },
    // Runs without a client key are no element.
    run_client_key: {
      kind: 'relation',
      type: 'string',
      sources: [
        {
          rows: {
            from: 'run_assets {ra} JOIN runs {r} ON {r}.pk = {ra}.run_pk AND {r}.client_key IS NOT NULL',
            parentKey: 't.asset_id',
            childKey: '{ra}.asset_id',
          },
          value: '{r}.client_key',
        },
      ],
    },
    created_date: time('t.created_date'),
    modified_date: time('t.modified_date'),
    created_by_user_id: str('t.created_by_user_id'),
    modified_by_user_id: str('t.modified_by_user_id'),
  },
};

/** ListUsers (`/api/v2/users:all`): the documented orders only; the platform states no default (created_date asc here). */
export const allUserListSpec: ListSpec = {
  ...userListSpec,
  resource: 'users (all)',
  orderFields: {
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
  },
  defaultOrder: [{ field: 'created_date', desc: false }],
};

export const unitListSpec: ListSpec = {
  resource: 'units',
  from: 'units t',
  tieBreak: 't.pk',
  // A unit's name is its abbreviated name.
  orderFields: {
    name: { sql: 't.name', type: 'text' },
    abbreviated_name: { sql: 't.name', type: 'text' },
    created_date: { sql: 't.created_date', type: 'number' },
  },
  defaultOrder: [{ field: 'created_date', desc: false }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // Filter fields (§11.6).
  filterFields: {
    unit_id: str('t.id'),
    name: str('t.name'),
    abbreviated_name: str('t.name'),
    created_date: time('t.created_date'),
  },
};
