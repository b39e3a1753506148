// ListAnnotationLogs: no order_by field exists (reference §4); logs are
// returned oldest first, the order of an activity history.
import type { ListSpec } from '../../filter/resource';

export const annotationLogListSpec: ListSpec = {
  resource: 'annotation logs',
  from: 'annotation_logs t',
  authorizedThrough: { table: 'annotations', parentColumn: 'annotation_pk' },
  tieBreak: 't.pk',
  // Not reachable through the request (it has no order_by); used for the default order only.
  orderFields: { created_date: { sql: 't.created_date', type: 'number' } },
  defaultOrder: [{ field: 'created_date', desc: false }],
  defaultPageSize: 50,
  maxPageSize: 1000,
  filterFields: {
    annotation_log_id: { kind: 'scalar', type: 'string', sql: 't.id' },
    annotation_id: { kind: 'scalar', type: 'string', sql: 't.annotation_id' },
    created_by_user_id: { kind: 'scalar', type: 'string', sql: 't.created_by_user_id' },
    created_date: { kind: 'scalar', type: 'timestamp', sql: 't.created_date' },
    modified_date: { kind: 'scalar', type: 'timestamp', sql: 't.modified_date' },
    kind: {
      kind: 'enum',
      sql: 't.kind',
      values: {
        ANNOTATION_LOG_KIND_UNSPECIFIED: 0,
        ANNOTATION_LOG_KIND_COMMENT: 1,
        ANNOTATION_LOG_KIND_STATE_UPDATE: 2,
        ANNOTATION_LOG_KIND_ASSIGNED: 3,
      },
    },
  },
};
