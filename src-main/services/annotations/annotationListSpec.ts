// ListAnnotations: order_by fields and default order (reference §1.6), and the
// CEL-filterable fields (reference §3 "List filter fields").
import type { ListSpec } from '../../filter/resource';

export const annotationListSpec: ListSpec = {
  resource: 'annotations',
  from: 'annotations t',
  tieBreak: 't.pk',
  orderFields: {
    created_date: { sql: 't.created_date', type: 'number' },
    modified_date: { sql: 't.modified_date', type: 'number' },
    start_time: { sql: 't.start_time', type: 'number' },
    end_time: { sql: 't.end_time', type: 'number' },
    name: { sql: 't.name', type: 'text' },
    description: { sql: 't.description', type: 'text' },
  },
  defaultOrder: [{ field: 'created_date', desc: true }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  // Filter semantics (absent fields, relations, enums): see filter/compileFilter.ts.
  filterFields: {
    annotation_id: { kind: 'scalar', type: 'string', sql: 't.id' },
    name: { kind: 'scalar', type: 'string', sql: 't.name' },
    description: { kind: 'scalar', type: 'string', sql: 't.description' },
    start_time: { kind: 'scalar', type: 'timestamp', sql: 't.start_time' },
    end_time: { kind: 'scalar', type: 'timestamp', sql: 't.end_time' },
    created_date: { kind: 'scalar', type: 'timestamp', sql: 't.created_date' },
    modified_date: { kind: 'scalar', type: 'timestamp', sql: 't.modified_date' },
    run_id: { kind: 'scalar', type: 'string', sql: 't.run_id', nullable: true },
    created_by_user_id: { kind: 'scalar', type: 'string', sql: 't.created_by_user_id' },
    created_by_rule_condition_version_id: { kind: 'scalar', type: 'string', sql: 't.created_by_rule_condition_version_id', nullable: true },
    state: {
      kind: 'enum',
      sql: 't.state',
      nullable: true,
      values: { ANNOTATION_STATE_UNSPECIFIED: 0, ANNOTATION_STATE_OPEN: 1, ANNOTATION_STATE_FLAGGED: 2, ANNOTATION_STATE_RESOLVED: 3 },
    },
    annotation_type: {
      kind: 'enum',
      sql: 't.annotation_type',
      values: { ANNOTATION_TYPE_UNSPECIFIED: 0, ANNOTATION_TYPE_DATA_REVIEW: 1, ANNOTATION_TYPE_PHASE: 2 },
    },
    pending: { kind: 'scalar', type: 'bool', sql: 't.pending', whenTrue: 't.pending = 1', whenFalse: 't.pending = 0' },
    archived_date: { kind: 'scalar', type: 'timestamp', sql: 't.archived_date', nullable: true },
    is_archived: {
      kind: 'scalar',
      type: 'bool',
      sql: '(t.archived_date IS NOT NULL)',
      whenTrue: 't.archived_date IS NOT NULL',
      whenFalse: 't.archived_date IS NULL',
    },
    tag_name: {
      kind: 'relation',
      type: 'string',
      sources: [{ rows: { from: 'annotation_tags {tag}', parentKey: 't.pk', childKey: '{tag}.annotation_pk' }, value: '{tag}.tag_name' }],
    },
    asset_id: {
      kind: 'relation',
      type: 'string',
      sources: [{ rows: { from: 'annotation_assets {aa}', parentKey: 't.pk', childKey: '{aa}.annotation_pk' }, value: '{aa}.asset_id' }],
    },
    asset_name: {
      kind: 'relation',
      type: 'string',
      sources: [
        {
          rows: {
            from: 'assets {asset} JOIN annotation_assets {aa} ON {aa}.asset_id = {asset}.id',
            parentKey: 't.pk',
            childKey: '{aa}.annotation_pk',
          },
          value: '{asset}.name',
        },
      ],
    },
    // The assignee matches by user id ('' when unassigned) or by the user's name.
    assignee: {
      kind: 'relation',
      type: 'string',
      sources: [
        { value: 't.assigned_to_user_id' },
        { rows: { from: 'users {u}', parentKey: 't.assigned_to_user_id', childKey: '{u}.id' }, value: '{u}.user_name' },
      ],
    },
    metadata: {
      kind: 'map',
      rows: {
        from: 'annotation_metadata {md}',
        // The primary key (annotation_pk, key): per row, not the typed value indexes (key, type, value, annotation_pk).
        fromByParent: 'annotation_metadata {md} INDEXED BY sqlite_autoindex_annotation_metadata_1',
        parentKey: 't.pk',
        childKey: '{md}.annotation_pk',
      },
      key: '{md}.key',
      value: {
        kind: 'dyn',
        tag: '{md}.type',
        string: { tag: 1, sql: '{md}.string_value' },
        double: { tag: 2, sql: '{md}.number_value' },
        bool: { tag: 3, sql: '{md}.boolean_value' },
      },
    },
    // The rule whose condition created the annotation (none for manual annotations).
    rule_id: {
      kind: 'relation',
      type: 'string',
      sources: [
        {
          rows: {
            from: 'rules {rule} JOIN rule_conditions {rc} ON {rc}.rule_pk = {rule}.pk',
            parentKey: 't.created_by_condition_id',
            childKey: '{rc}.id',
          },
          value: '{rule}.id',
        },
      ],
    },
    // The local schema does not link annotations to reports or campaigns yet:
    // these relations have no elements (`report_id == 'x'` matches nothing,
    // `!(report_id == 'x')` everything) until those tables exist.
    report_id: { kind: 'relation', type: 'string', sources: [] },
    campaign_reports: { kind: 'relation', type: 'string', sources: [] },
  },
};
